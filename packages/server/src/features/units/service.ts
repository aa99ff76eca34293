import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import {
  batchUnitNames,
  Limits,
  type TBatchUnits,
  type TUnit,
  type TUnitList,
  type TUnitSummary,
  type ZUnitCreate,
  type ZUnitListQuery,
  type ZUnitPatch,
} from '@stageline/shared';
import type { z } from 'zod';
import { escapeLike, schema, type Db } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { emitTasksCreated, emitWebhookEvents, publish } from '../events';
import { authorizeProject } from '../projects';
import { insertUnitsWithTasks, loadCells, loadGraph, lockGraphForShare } from '../tasks';
import { actorIn, inWorkspacesOf } from '../workspaces';
import { authorizeNewUnit, authorizeUnit, type UnitRow } from './policy';

const { units, projects, pipelines } = schema;

export const nameTooLong = 'Names made from the template are longer than 200 characters.';

function presentSummary(row: UnitRow): TUnitSummary {
  return {
    id: row.id,
    project: row.projectId,
    pipeline: row.pipelineId,
    name: row.name,
    description: row.description,
    created_at: row.createdAt.toISOString(),
  };
}

/** A unit with its task cells. */
async function loadUnit(db: Db, row: UnitRow, workspaceId: number): Promise<TUnit> {
  const graph = await loadGraph(db, row.pipelineId, workspaceId);
  const cells = await loadCells(db, { graph, unitIds: [row.id], workspaceId, now: new Date() });
  return { ...presentSummary(row), tasks: cells.get(row.id) ?? [] };
}

/**
 * One `units` live event to the workspace per call that adds or removes units (not one per unit),
 * and the webhook events of each unit (`unit.created` with its tasks' `task.created`, or
 * `unit.deleted`), all in the change's transaction.
 */
async function unitsChanged(
  tx: Db,
  {
    workspaceId,
    projectId,
    pipelineId,
    created = [],
    deleted = [],
  }: {
    workspaceId: number;
    projectId: number;
    pipelineId: number;
    created?: { id: number; name: string }[];
    deleted?: { id: number; name: string }[];
  },
) {
  await publish(tx, { workspace: workspaceId }, { type: 'units', data: { pipeline: pipelineId, project: projectId } });
  const unit = (row: { id: number; name: string }) => ({
    unit: { id: row.id, name: row.name, project: projectId, pipeline: pipelineId },
  });
  await emitWebhookEvents(tx, workspaceId, [
    ...created.map((row) => ({ event: 'unit.created' as const, data: unit(row) })),
    ...deleted.map((row) => ({ event: 'unit.deleted' as const, data: unit(row) })),
  ]);
  await emitTasksCreated(
    tx,
    workspaceId,
    created.map((row) => row.id),
  );
}

/** POST units/ (Members and above): the unit and one task per stage of its pipeline, in one transaction. */
export async function createUnit(
  db: Db,
  { userId, input }: { userId: number; input: z.infer<typeof ZUnitCreate> },
): Promise<TUnit> {
  const { project } = await authorizeNewUnit(db, { userId, projectId: input.project, pipelineId: input.pipeline });
  const [created] = await db.transaction(async (tx) => {
    await lockGraphForShare(tx, input.pipeline);
    const rows = await insertUnitsWithTasks(tx, {
      projectId: project.id,
      pipelineId: input.pipeline,
      names: [input.name],
      description: input.description ?? '',
      now: new Date(),
    });
    await unitsChanged(tx, {
      workspaceId: project.workspaceId,
      projectId: project.id,
      pipelineId: input.pipeline,
      created: rows,
    });
    return rows;
  });
  const [row] = await db.select().from(units).where(eq(units.id, created!.id));
  return loadUnit(db, row!, project.workspaceId);
}

/**
 * POST units/batch/ (Members and above): 1–10,000 units named by `batchUnitNames` (the form's
 * preview and the server agree), all with their tasks, in one transaction and one INSERT statement.
 */
export async function createUnitsBatch(db: Db, { userId, input }: { userId: number; input: TBatchUnits }) {
  const { project } = await authorizeNewUnit(db, { userId, projectId: input.project, pipelineId: input.pipeline });
  const names = batchUnitNames(input, project.name).map((name) => name.trim());
  if (names.some((name) => name.length > Limits.name.max || name.length < Limits.name.min)) {
    throw new FieldError({ template: [nameTooLong] });
  }
  const created = await db.transaction(async (tx) => {
    await lockGraphForShare(tx, input.pipeline);
    const rows = await insertUnitsWithTasks(tx, {
      projectId: project.id,
      pipelineId: input.pipeline,
      names,
      now: new Date(),
    });
    await unitsChanged(tx, {
      workspaceId: project.workspaceId,
      projectId: project.id,
      pipelineId: input.pipeline,
      created: rows,
    });
    return rows;
  });
  return { created: created.length, units: created };
}

/**
 * GET units/: a page of units of a project or pipeline (404 when not visible), or of every project
 * the caller can see; by name, then id. The matrix call adds the task cells.
 */
export async function listUnits(
  db: Db,
  { userId, query }: { userId: number; query: z.infer<typeof ZUnitListQuery> },
): Promise<TUnitList> {
  const where: SQL[] = [];
  if (query.project !== undefined) {
    await authorizeProject(db, { userId, projectId: query.project, action: 'view' });
    where.push(eq(units.projectId, query.project));
  }
  if (query.pipeline !== undefined) {
    const [row] = await db
      .select({ workspaceId: projects.workspaceId })
      .from(pipelines)
      .innerJoin(projects, eq(projects.id, pipelines.projectId))
      .where(eq(pipelines.id, query.pipeline));
    if (!row) throw new AppError('not_found');
    await actorIn(db, userId, row.workspaceId);
    where.push(eq(units.pipelineId, query.pipeline));
  }
  where.push(
    sql`${units.projectId} in (select ${projects.id} from ${projects} where ${inWorkspacesOf(userId, projects.workspaceId)})`,
  );
  if (query.search) where.push(sql`${units.name} ilike ${`%${escapeLike(query.search)}%`}`);
  const rows = await db
    .select({ unit: units, total: sql<number>`count(*) over ()::int` })
    .from(units)
    .where(and(...where))
    .orderBy(asc(units.name), asc(units.id))
    .limit(query.limit)
    .offset(query.offset);
  const count = rows[0]
    ? Number(rows[0].total)
    : query.offset === 0
      ? 0
      : Number(
          (
            await db
              .select({ n: sql<number>`count(*)::int` })
              .from(units)
              .where(and(...where))
          )[0]?.n ?? 0,
        );
  const end = query.offset + rows.length;
  return { count, next: end < count ? end : null, results: rows.map((r) => presentSummary(r.unit)) };
}

/** Kept for the matrix module, which imports it from here. */
export { escapeLike };

/** GET units/{id}/. */
export async function getUnit(db: Db, { userId, unitId }: { userId: number; unitId: number }) {
  const { unit, workspaceId } = await authorizeUnit(db, { userId, unitId, action: 'view' });
  return loadUnit(db, unit, workspaceId);
}

/** PATCH units/{id}/ (Members and above): name and description. */
export async function updateUnit(
  db: Db,
  { userId, unitId, patch }: { userId: number; unitId: number; patch: z.infer<typeof ZUnitPatch> },
) {
  const { workspaceId } = await authorizeUnit(db, { userId, unitId, action: 'update' });
  const changes = Object.fromEntries(
    Object.entries({ name: patch.name, description: patch.description }).filter(([, v]) => v !== undefined),
  );
  const [row] = await db
    .update(units)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(units.id, unitId))
    .returning();
  if (!row) throw new AppError('not_found');
  return loadUnit(db, row, workspaceId);
}

/** DELETE units/{id}/ (Admins and above): its tasks, rounds and history go with it. */
export async function deleteUnit(db: Db, { userId, unitId }: { userId: number; unitId: number }) {
  const { unit, workspaceId } = await authorizeUnit(db, { userId, unitId, action: 'delete' });
  await db.transaction(async (tx) => {
    await tx.delete(units).where(eq(units.id, unitId));
    await unitsChanged(tx, {
      workspaceId,
      projectId: unit.projectId,
      pipelineId: unit.pipelineId,
      deleted: [{ id: unit.id, name: unit.name }],
    });
  });
}
