import type { Db } from '../../db';
import { createTasksForStages, deleteTasksOfStages, refreshPipelineReadiness } from '../tasks';

/**
 * Where tasks follow the graph (docs/rules.md §Pipelines): a new stage gets a task for every unit of
 * the pipeline in the same transaction, and a deleted stage takes its tasks with it. All are called inside
 * the graph save's transaction with the pipeline row locked (unit creation holds it for share), so
 * no unit can be created between reading the stages and writing their tasks.
 */
export type StageChange = { pipelineId: number; stageIds: number[] };

/** After new stages (kind `stage`) are inserted: one task per unit of the pipeline, set-based. */
export async function onStagesAdded(tx: Db, { pipelineId, stageIds }: StageChange): Promise<void> {
  await createTasksForStages(tx, { pipelineId, stageIds, now: new Date() });
}

/** Before stages are deleted (their rows still exist): their tasks go, with rounds and history. */
export async function onStagesRemoved(tx: Db, { stageIds }: StageChange): Promise<void> {
  await deleteTasksOfStages(tx, stageIds);
}

/**
 * After the edges are saved: readiness (and so "days after ready" due dates) follows the new graph.
 * Only tasks whose readiness changed are written.
 */
export async function onGraphSaved(tx: Db, { pipelineId }: { pipelineId: number }): Promise<void> {
  await refreshPipelineReadiness(tx, pipelineId, new Date());
}
