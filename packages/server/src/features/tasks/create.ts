import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  initialStatus,
  stagePredecessors,
  type TGraphNode,
  type TReviewMode,
  type TStageRules,
} from '@stageline/shared';
import { schema, type Db } from '../../db';
import { at, refreshReadiness, rowsOf } from './sql';

const { stages, stageEdges, pipelines } = schema;

/** A stage's review rules as the engine takes them. */
export function rulesOf(row: {
  todoEnabled: boolean;
  reviewMode: TReviewMode;
  skipReviewIfNoReviewers: boolean;
  acceptEditAsDone: boolean;
}): TStageRules {
  return {
    todoEnabled: row.todoEnabled,
    reviewMode: row.reviewMode,
    skipReviewIfNoReviewers: row.skipReviewIfNoReviewers,
    acceptEditAsDone: row.acceptEditAsDone,
  };
}

/** How new tasks of each stage start: `initialStatus`, and ready at once when fed only by the start. */
async function newTaskShapes(db: Db, pipelineId: number, stageIds?: number[]) {
  const nodes = await db
    .select({
      id: stages.id,
      kind: stages.kind,
      todoEnabled: stages.todoEnabled,
      reviewMode: stages.reviewMode,
      skipReviewIfNoReviewers: stages.skipReviewIfNoReviewers,
      acceptEditAsDone: stages.acceptEditAsDone,
      dueDays: stages.defaultDueDays,
      dueDate: stages.defaultDueDate,
      estimate: stages.defaultEstimateHours,
    })
    .from(stages)
    .where(eq(stages.pipelineId, pipelineId));
  const edges = await db
    .select({ source: stageEdges.sourceId, target: stageEdges.targetId })
    .from(stageEdges)
    .where(eq(stageEdges.pipelineId, pipelineId));
  const graph = nodes as TGraphNode<number>[];
  const wanted = stageIds ? new Set(stageIds) : undefined;
  return nodes
    .filter((node) => node.kind === 'stage' && (!wanted || wanted.has(node.id)))
    .map((node) => ({
      stage_id: node.id,
      status: initialStatus(rulesOf(node)),
      ready: stagePredecessors(graph, edges, node.id).length === 0,
      due_days: node.dueDays,
      due_date: node.dueDate,
      estimate: node.estimate,
    }));
}

/**
 * Holds the pipeline's graph still while units are created: a graph save (which locks the row for
 * update) cannot add or remove stages between reading them and inserting their tasks.
 */
export async function lockGraphForShare(tx: Db, pipelineId: number): Promise<void> {
  await tx.select({ id: pipelines.id }).from(pipelines).where(eq(pipelines.id, pipelineId)).for('share');
}

/** The columns of a new task's shape `s` (from `newTaskShapes`), as `json_to_recordset` reads them. */
const shapeColumns = sql.raw(
  's(stage_id int, status text, ready boolean, due_days int, due_date date, estimate numeric)',
);

/**
 * Inserts units and all their tasks (one per stage of kind `stage`) in ONE statement: the units
 * from a JSON array of names (with `descriptions` by index, else `description` for all), the tasks
 * as the units × stages cross product. 10,000 units × 20 stages is still one round trip. Call
 * inside a transaction that holds `lockGraphForShare`. Rows come back in the order of `names`.
 */
export async function insertUnitsWithTasks(
  tx: Db,
  {
    projectId,
    pipelineId,
    names,
    description = '',
    descriptions,
    now,
  }: {
    projectId: number;
    pipelineId: number;
    names: string[];
    description?: string;
    descriptions?: string[];
    now: Date;
  },
): Promise<{ id: number; name: string }[]> {
  const shapes = await newTaskShapes(tx, pipelineId);
  const items = names.map((name, i) => ({ name, description: descriptions?.[i] ?? description }));
  return rowsOf<{ id: number; name: string }>(
    tx,
    sql`
    with new_units as (
      insert into units (project_id, pipeline_id, name, description, created_at, updated_at)
      select ${projectId}, ${pipelineId}, n.item->>'name', n.item->>'description', ${at(now)}, ${at(now)}
      from json_array_elements(${JSON.stringify(items)}::json) with ordinality as n(item, ord)
      order by n.ord
      returning id, name),
    new_tasks as (
      insert into tasks (unit_id, stage_id, pipeline_id, status, ready_at, effective_due, estimate_hours, created_at, updated_at)
      select u.id, s.stage_id, ${pipelineId}, s.status, r.ready_at, stage_due(s.due_date, s.due_days, r.ready_at),
        s.estimate, ${at(now)}, ${at(now)}
      from new_units u cross join json_to_recordset(${JSON.stringify(shapes)}::json) as ${shapeColumns}
      cross join lateral (select case when s.ready then ${at(now)} end as ready_at) r)
    select id, name from new_units order by id`,
  );
}

/**
 * New stages of a saved graph: one task for every unit of the pipeline, in one statement (called
 * inside the graph save's transaction).
 */
export async function createTasksForStages(
  tx: Db,
  { pipelineId, stageIds, now }: { pipelineId: number; stageIds: number[]; now: Date },
): Promise<void> {
  const shapes = await newTaskShapes(tx, pipelineId, stageIds);
  if (shapes.length === 0) return;
  await tx.execute(sql`
    insert into tasks (unit_id, stage_id, pipeline_id, status, effective_due, estimate_hours, created_at, updated_at)
    select u.id, s.stage_id, ${pipelineId}, s.status, stage_due(s.due_date, s.due_days, null), s.estimate, ${at(now)}, ${at(now)}
    from units u cross join json_to_recordset(${JSON.stringify(shapes)}::json) as ${shapeColumns}
    where u.pipeline_id = ${pipelineId}`);
}

/** Removed stages: their tasks go (history, rounds and people cascade with them). */
export async function deleteTasksOfStages(tx: Db, stageIds: number[]): Promise<void> {
  if (stageIds.length === 0) return;
  await tx.delete(schema.tasks).where(and(inArray(schema.tasks.stageId, stageIds)));
}

/** After a graph save: readiness of every task of the pipeline follows the new edges. */
export async function refreshPipelineReadiness(tx: Db, pipelineId: number, now: Date): Promise<void> {
  await refreshReadiness(tx, sql`t.stage_id in (select id from stages where pipeline_id = ${pipelineId})`, now);
}
