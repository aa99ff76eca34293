import type { Db } from '../../db';

/**
 * Where the tasks of a later issue hook into the graph (domain.md §2): "adding a stage creates its
 * tasks for every unit of the pipeline, in the same transaction; deleting a stage deletes its tasks".
 * Both are called inside the graph save's transaction with the pipeline row locked, so whatever
 * they write commits or rolls back with the graph. No-ops until units and tasks exist.
 */
export type StageChange = { pipelineId: number; stageIds: number[] };

/** After new stages (kind `stage`) are inserted: create one task per unit of the pipeline. */
export async function onStagesAdded(_tx: Db, _change: StageChange): Promise<void> {}

/** Before stages are deleted (their rows still exist): delete or archive their tasks. */
export async function onStagesRemoved(_tx: Db, _change: StageChange): Promise<void> {}
