// Long because a unit's reads and writes share their authorization, custom fields and history; the matrix is its own module.
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import {
  batchUnitNames,
  Limits,
  type TBatchUnits,
  type TUnit,
  type TUnitList,
  type TUnitSummary,
  type ZUnitCreate,
  type ZUnitListQueryWithFields,
  type ZUnitPatch,
} from '@stageline/shared';
import { fieldFiltersOf } from '@stageline/shared/fields';
import type { z } from 'zod';
import { escapeLike, rowsOf, schema, type Db } from '../../db';
import { isRowId, readCursor, writeCursor } from '../../http/cursor';
import { AppError, FieldError } from '../../http/errors';
import { recordAudit } from '../audit';
import { applyFieldChanges, checkFieldChanges, fieldConditions, loadProjectFields, unitFieldDefaults } from '../fields';
import { recordHistory } from '../history';
import { emitTasksCreated, emitUnitsBatchCreated, emitWebhookEvents, publish } from '../events';
import { authorizeProject } from '../projects';
import { insertUnitsWithTasks, loadCells, loadGraph, lockGraphForShare, stageDue } from '../tasks';
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
    fields: row.fields as TUnitSummary['fields'],
    created_at: row.createdAt.toISOString(),
  };
}

/** A unit with its task cells. */
async function loadUnit(db: Db, row: UnitRow, workspaceId: number): Promise<TUnit> {
  const graph = await loadGraph(db, row.pipelineId, workspaceId);
  const cells = await loadCells(db, { graph, unitIds: [row.id], workspaceId, now: new Date() });
  return { ...presentSummary(row), tasks: cells.get(row.id) ?? [] };
}

/** New units' custom field values (their defaults, or those of the request): one statement, none without values. */
async function setFieldsOf(tx: Db, rows: { id: number }[], values: Record<string, unknown>) {
  if (rows.length === 0 || Object.keys(values).length === 0) return;
  await tx.execute(sql`update units set fields = ${JSON.stringify(values)}::jsonb
    where id in (select value::int from json_array_elements_text(${JSON.stringify(rows.map((row) => row.id))}::json))`);
}

/**
 * One `units` live event to the workspace per call that adds or removes units (not one per unit),
 * and the webhook events of each unit (`unit.created` with its tasks' `task.created`, or
 * `unit.deleted`), all in the change's transaction. A batch (`batch`: POST units/batch/, a CSV
 * import) sends one `unit.batch_created` instead of the `unit.created` and `task.created` of each.
 */
async function unitsChanged(
  tx: Db,
  {
    workspaceId,
    projectId,
    pipelineId,
    created = [],
    deleted = [],
    batch = false,
  }: {
    workspaceId: number;
    projectId: number;
    pipelineId: number;
    created?: { id: number; name: string; fields?: Record<string, unknown> }[];
    deleted?: { id: number; name: string; fields?: Record<string, unknown> }[];
    batch?: boolean;
  },
) {
  await publish(tx, { workspace: workspaceId }, { type: 'units', data: { pipeline: pipelineId, project: projectId } });
  if (batch) {
    const units = created.map((row) => row.id);
    await emitUnitsBatchCreated(tx, workspaceId, { project: projectId, pipeline: pipelineId, units });
    return;
  }
  // Custom field values by key (docs/custom-fields.md), as the API's `fields`.
  const unit = (row: { id: number; name: string; fields?: Record<string, unknown> }) => ({
    unit: { id: row.id, name: row.name, project: projectId, pipeline: pipelineId, fields: row.fields ?? {} },
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
  const fields = await checkFieldChanges(db, {
    projectId: project.id,
    workspaceId: project.workspaceId,
    input: input.fields,
    target: 'unit',
    creating: true,
  });
  const [created] = await db.transaction(async (tx) => {
    await lockGraphForShare(tx, input.pipeline);
    const rows = await insertUnitsWithTasks(tx, {
      projectId: project.id,
      pipelineId: input.pipeline,
      names: [input.name],
      description: input.description ?? '',
      now: new Date(),
    });
    await setFieldsOf(tx, rows, fields.set);
    await unitsChanged(tx, {
      workspaceId: project.workspaceId,
      projectId: project.id,
      pipelineId: input.pipeline,
      created: rows.map((row) => ({ ...row, fields: fields.set })),
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
    await setFieldsOf(tx, rows, await unitFieldDefaults(tx, project.id));
    await unitsChanged(tx, {
      workspaceId: project.workspaceId,
      projectId: project.id,
      pipelineId: input.pipeline,
      created: rows,
      batch: true,
    });
    return rows;
  });
  return { created: created.length, units: created };
}

/** A unit read from an import file: its name, description and the people or due date of some stages. */
export type ImportedUnit = {
  name: string;
  description: string;
  /** Stages given own values; a field left out keeps the stage's effective value (as PATCH tasks/ seeds it). */
  stages: { stage: number; assignees?: number[]; due?: Date }[];
  /** Custom field values, checked (docs/custom-fields.md); fields left out take their default. */
  fields?: Record<string, unknown>;
};

/**
 * Units of a CSV import (Members and above), all in ONE transaction: created exactly as a batch is
 * (`insertUnitsWithTasks`, the `units` live event, one `unit.batch_created` webhook), then
 * the tasks of stages with people or a due date switch to their own values, seeded from the stage's
 * effective ones for what the file leaves out, the way PATCH tasks/ does.
 */
export async function createImportedUnits(
  db: Db,
  {
    userId,
    projectId,
    pipelineId,
    rows,
  }: { userId: number; projectId: number; pipelineId: number; rows: ImportedUnit[] },
): Promise<{ id: number; name: string }[]> {
  const { project } = await authorizeNewUnit(db, { userId, projectId, pipelineId });
  if (rows.length === 0) return [];
  const workspaceId = project.workspaceId;
  return db.transaction(async (tx) => {
    await lockGraphForShare(tx, pipelineId);
    const now = new Date();
    const created = await insertUnitsWithTasks(tx, {
      projectId,
      pipelineId,
      names: rows.map((row) => row.name),
      descriptions: rows.map((row) => row.description),
      now,
    });
    const defaults = await unitFieldDefaults(tx, projectId);
    const valued = created
      .map((unit, i) => ({ id: unit.id, fields: { ...defaults, ...rows[i]!.fields } }))
      .filter((unit) => Object.keys(unit.fields).length > 0);
    if (valued.length > 0) {
      await tx.execute(sql`update units u set fields = x.fields
        from json_to_recordset(${JSON.stringify(valued)}::json) as x(id int, fields jsonb) where u.id = x.id`);
    }
    const own = rows.flatMap((row, i) =>
      row.stages.map((spec) => ({
        unit: created[i]!.id,
        stage: spec.stage,
        due: spec.due?.toISOString() ?? null,
        assignees: spec.assignees ?? null,
      })),
    );
    if (own.length > 0) await switchToOwnValues(tx, { workspaceId, own, now });
    await unitsChanged(tx, { workspaceId, projectId, pipelineId, created, batch: true });
    return created;
  });
}

/** Tasks of new units given own people or due dates: one statement per table, whatever the count. */
async function switchToOwnValues(
  tx: Db,
  {
    workspaceId,
    own,
    now,
  }: {
    workspaceId: number;
    own: { unit: number; stage: number; due: string | null; assignees: number[] | null }[];
    now: Date;
  },
) {
  const switched = await rowsOf<{ id: number; unit_id: number; stage_id: number }>(
    tx,
    sql`update tasks t set use_stage_defaults = false, updated_at = ${now.toISOString()}::timestamptz,
        due_date = coalesce(x.due::timestamptz, ${stageDue})
      from json_to_recordset(${JSON.stringify(own)}::json) as x(unit int, stage int, due text)
      join stages s on s.id = x.stage
      where t.unit_id = x.unit and t.stage_id = x.stage
      returning t.id, t.unit_id, t.stage_id`,
  );
  const taskOf = new Map(switched.map((row) => [`${row.unit_id}:${row.stage_id}`, row.id]));
  const given = own.flatMap((spec) =>
    (spec.assignees ?? []).map((person) => ({ task: taskOf.get(`${spec.unit}:${spec.stage}`)!, person })),
  );
  const seeded = own.filter((spec) => spec.assignees === null).map((spec) => taskOf.get(`${spec.unit}:${spec.stage}`)!);
  const ids = JSON.stringify(switched.map((row) => row.id));
  if (given.length > 0) {
    await tx.execute(sql`insert into task_assignees (task_id, user_id)
      select distinct x.task, x.person from json_to_recordset(${JSON.stringify(given)}::json) as x(task int, person int)
      on conflict do nothing`);
  }
  for (const [table, defaults, only] of [
    ['task_assignees', 'stage_default_assignees', JSON.stringify(seeded)],
    ['task_reviewers', 'stage_default_reviewers', ids],
  ] as const) {
    await tx.execute(sql`insert into ${sql.raw(table)} (task_id, user_id)
      select t.id, d.user_id from tasks t
      join ${sql.raw(defaults)} d on d.stage_id = t.stage_id
      join memberships m on m.user_id = d.user_id and m.workspace_id = ${workspaceId}
      where t.id in (select value::int from json_array_elements_text(${only}::json))
      on conflict do nothing`);
  }
}

/**
 * GET units/: a page of units of a project or pipeline (404 when not visible), or of every project
 * the caller can see; by name, then id. The matrix call adds the task cells.
 */
export async function listUnits(
  db: Db,
  { userId, query }: { userId: number; query: z.infer<typeof ZUnitListQueryWithFields> },
): Promise<TUnitList> {
  const after = readCursor(query.after, query.offset, ([name, id, ...rest]) =>
    typeof name === 'string' && isRowId(id) && rest.length === 0 ? { name, id } : undefined,
  );
  const where: SQL[] = [];
  let pipeline: { projectId: number; unitsCount: number } | undefined;
  if (query.project !== undefined) {
    await authorizeProject(db, { userId, projectId: query.project, action: 'view' });
    where.push(eq(units.projectId, query.project));
  }
  if (query.pipeline !== undefined) {
    const [row] = await db
      .select({ workspaceId: projects.workspaceId, projectId: pipelines.projectId, unitsCount: pipelines.unitsCount })
      .from(pipelines)
      .innerJoin(projects, eq(projects.id, pipelines.projectId))
      .where(eq(pipelines.id, query.pipeline));
    if (!row) throw new AppError('not_found');
    await actorIn(db, userId, row.workspaceId);
    where.push(eq(units.pipelineId, query.pipeline));
    pipeline = row;
  }
  where.push(
    sql`${units.projectId} in (select ${projects.id} from ${projects} where ${inWorkspacesOf(userId, projects.workspaceId)})`,
  );
  if (query.search) where.push(sql`${units.name} ilike ${`%${escapeLike(query.search)}%`}`);
  // Custom field filters need the project whose fields they name (docs/custom-fields.md).
  const fieldFilters = fieldFiltersOf(query);
  const filteredByField = Object.keys(fieldFilters).length > 0;
  if (filteredByField) {
    const projectId = query.project ?? pipeline?.projectId;
    if (projectId === undefined) throw new FieldError({ project: ['Required'] });
    const fields = await loadProjectFields(db, projectId);
    where.push(...fieldConditions(fields, fieldFilters, { column: sql`${units.fields}`, userId, escapeLike }));
  }
  // The count: the stored `units_count` of the pipeline or project when nothing else narrows the
  // list (decision 104); else every match, counted by the page's own query unless it starts after
  // a cursor (then separately).
  let known: number | undefined;
  let counted: SQL | undefined;
  if (
    !query.search &&
    !filteredByField &&
    pipeline &&
    (query.project === undefined || query.project === pipeline.projectId)
  ) {
    known = pipeline.unitsCount;
  } else if (!query.search && !filteredByField && query.project !== undefined && query.pipeline === undefined) {
    counted = sql`(select ${projects.unitsCount} from ${projects} where ${projects.id} = ${query.project})`;
  } else if (!after) {
    counted = sql`count(*) over ()`;
  }
  const filter = and(...where);
  const keyed = after ? and(filter, sql`(${units.name}, ${units.id}) > (${after.name}, ${after.id}::integer)`) : filter;
  // One more row than the page tells whether a next page exists.
  const rows = await db
    .select({ unit: units, total: sql<number | null>`${counted ?? sql`null`}::int` })
    .from(units)
    .where(keyed)
    .orderBy(asc(units.name), asc(units.id))
    .limit(query.limit + 1)
    .offset(query.offset);
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const count =
    known ??
    (rows[0] && counted
      ? Number(rows[0].total)
      : Number(
          (
            await db
              .select({ n: sql<number>`count(*)::int` })
              .from(units)
              .where(filter)
          )[0]?.n ?? 0,
        ));
  const last = page.at(-1)?.unit;
  const end = query.offset + page.length;
  return {
    count,
    next: !after && more ? end : null,
    next_cursor: more && last ? writeCursor([last.name, last.id]) : null,
    results: page.map((r) => presentSummary(r.unit)),
  };
}

/** Kept for the matrix module, which imports it from here. */
export { escapeLike };

/** GET units/{id}/. */
export async function getUnit(db: Db, { userId, unitId }: { userId: number; unitId: number }) {
  const { unit, workspaceId } = await authorizeUnit(db, { userId, unitId, action: 'view' });
  return loadUnit(db, unit, workspaceId);
}

/** PATCH units/{id}/ (Members and above): name, description and custom field values. */
export async function updateUnit(
  db: Db,
  { userId, unitId, patch }: { userId: number; unitId: number; patch: z.infer<typeof ZUnitPatch> },
) {
  const { unit, workspaceId } = await authorizeUnit(db, { userId, unitId, action: 'update' });
  const fields = await checkFieldChanges(db, {
    projectId: unit.projectId,
    workspaceId,
    input: patch.fields,
    target: 'unit',
    creating: false,
  });
  const changes = Object.fromEntries(
    Object.entries({ name: patch.name, description: patch.description }).filter(([, v]) => v !== undefined),
  );
  const changesFields = Object.keys(fields.set).length > 0 || fields.clear.length > 0;
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(units)
      .set({
        ...changes,
        ...(changesFields ? { fields: applyFieldChanges(sql`${units.fields}`, fields) } : {}),
        updatedAt: new Date(),
      })
      .where(eq(units.id, unitId))
      .returning();
    if (!updated) throw new AppError('not_found');
    // Its history (docs/history-and-audit.md): each field that changed, old → new; custom fields
    // as `field:<key>`.
    const before = unit.fields ?? {};
    const after = updated.fields ?? {};
    const fieldKeys = [...Object.keys(fields.set), ...fields.clear];
    await recordHistory(tx, {
      workspaceId,
      actorId: userId,
      changes: [
        ...(['name', 'description'] as const)
          .filter((field) => patch[field] !== undefined && patch[field] !== unit[field])
          .map((field) => ({ unitId, field, old: unit[field], new: updated[field] })),
        ...fieldKeys
          .filter((key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null))
          .map((key) => ({
            unitId,
            field: `field:${key}` as const,
            old: before[key] ?? null,
            new: after[key] ?? null,
          })),
      ],
    });
    return updated;
  });
  return loadUnit(db, row, workspaceId);
}

/** DELETE units/{id}/ (Admins and above): its tasks, rounds and history go with it. */
export async function deleteUnit(db: Db, { userId, unitId }: { userId: number; unitId: number }) {
  const { unit, workspaceId } = await authorizeUnit(db, { userId, unitId, action: 'delete' });
  await db.transaction(async (tx) => {
    await tx.delete(units).where(eq(units.id, unitId));
    await recordAudit(tx, workspaceId, {
      action: 'unit.deleted',
      actorId: userId,
      target: { kind: 'unit', id: unitId, name: unit.name },
      details: { project: unit.projectId, pipeline: unit.pipelineId },
    });
    await unitsChanged(tx, {
      workspaceId,
      projectId: unit.projectId,
      pipelineId: unit.pipelineId,
      deleted: [{ id: unit.id, name: unit.name, fields: unit.fields }],
    });
  });
}
