import { asc, eq, inArray } from 'drizzle-orm';
import { schema, type Db } from '../../db';
import { loadProjectFields } from '../fields';
import { exportTasks, loadCells } from '../tasks';
import { authorizePipelineGraph } from '../units';
import type { z } from 'zod';
import { type ZTaskListQuery } from '@stageline/shared';
import { fieldValueText } from '@stageline/shared/fields';

const { units, users } = schema;

/** Units whose cells are read per query: bounded memory and statement size for big pipelines. */
const chunk = 1000;

/** A table to send as a CSV file; `workspaceId` names the workspace it came from, when one did (for the audit log). */
export type CsvExport = { filename: string; header: string[]; rows: string[][]; workspaceId?: number };

/** Usernames by user id. */
async function usernames(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row.username]));
}

/**
 * GET pipelines/{id}/export.csv: one row per unit in the matrix's (natural) name order; `id`,
 * `name`, `description`, then for each stage in flow order its status, effective assignees
 * (usernames, `; `-separated) and effective due date (ISO, UTC), as the matrix computes them.
 */
export async function exportPipeline(
  db: Db,
  { userId, pipelineId }: { userId: number; pipelineId: number },
): Promise<CsvExport> {
  // The access, the pipeline's name and its graph in one statement (decision 121).
  const { workspaceId, projectId, pipelineName, graph } = await authorizePipelineGraph(db, { userId, pipelineId });
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  // Custom fields by name, after the description (docs/custom-fields.md): an import reads them back.
  const fields = (await loadProjectFields(db, projectId)).filter(
    (f) => f.appliesTo === 'unit' && f.archivedAt === null,
  );
  const header = ['id', 'name', 'description', ...fields.map((field) => field.name)];
  for (const stage of graph.flow) {
    const name = names.get(stage) ?? '';
    header.push(`${name}: status`, `${name}: assignees`, `${name}: due`);
  }
  const list = await db
    .select({ id: units.id, name: units.name, description: units.description, fields: units.fields })
    .from(units)
    .where(eq(units.pipelineId, pipelineId))
    .orderBy(asc(units.name), asc(units.id));
  const rows: string[][] = [];
  const now = new Date();
  for (let start = 0; start < list.length; start += chunk) {
    const page = list.slice(start, start + chunk);
    const cells = await loadCells(db, { graph, unitIds: page.map((u) => u.id), workspaceId, now });
    const people = await usernames(db, [
      ...[...cells.values()].flatMap((tasks) => tasks.flatMap((task) => task.assignees)),
      ...page.flatMap((unit) =>
        fields
          .filter((f) => f.kind === 'person' && typeof unit.fields[f.key] === 'number')
          .map((f) => Number(unit.fields[f.key])),
      ),
    ]);
    for (const unit of page) {
      const byStage = new Map((cells.get(unit.id) ?? []).map((task) => [task.stage, task]));
      const row = [
        String(unit.id),
        unit.name,
        unit.description,
        ...fields.map((field) => fieldValueText(field, unit.fields[field.key], (id) => people.get(id))),
      ];
      for (const stage of graph.flow) {
        const task = byStage.get(stage);
        row.push(
          task?.status ?? '',
          (task?.assignees ?? [])
            .map((id) => people.get(id) ?? '')
            .filter(Boolean)
            .join('; '),
          task?.due_date ?? '',
        );
      }
      rows.push(row);
    }
  }
  return { filename: `${pipelineName}.csv`, header, rows, workspaceId };
}

/** GET tasks/export.csv: the tasks of `GET tasks/` with the same filters, all of them. */
export async function exportTaskList(
  db: Db,
  { userId, query }: { userId: number; query: Omit<z.infer<typeof ZTaskListQuery>, 'offset' | 'limit'> },
): Promise<CsvExport> {
  const tasks = await exportTasks(db, { userId, query });
  return {
    filename: 'tasks.csv',
    header: ['id', 'project', 'pipeline', 'unit', 'stage', 'status', 'ready', 'overdue', 'due', 'assignees'],
    rows: tasks.map((task) => [
      String(task.id),
      task.project.name,
      task.pipeline.name,
      task.unit.name,
      task.stage.name,
      task.status,
      String(task.ready),
      String(task.overdue),
      task.due_date ?? '',
      task.assignees.join('; '),
    ]),
  };
}
