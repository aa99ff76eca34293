import { eq, inArray } from 'drizzle-orm';
import type { TStage, TStageUpdate } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { assertMembers, peopleOf, replacePeople } from './people';
import { actorIn, authorize } from '../workspaces';
import { authorizeStages } from './policy';
import { presentStage } from './presenter';
import { nodeOrder } from './read';
import { assertOneDue, hasSettings, settingsColumns } from './settings';
import { assertEnforceChange, assertStageRules, rulesOfStages, writeStageRules } from './stage-rules';

const { projects, pipelines, stages } = schema;

export const StageMessages = {
  startEndFixed: 'The start and end stages have no settings.',
  onePipeline: 'All stages must belong to one pipeline.',
} as const;

/** Stages by id with the workspace they live in, in the API's node order. */
async function stagesWithWorkspace(db: Db, ids: number[]) {
  return db
    .select({ stage: stages, workspaceId: projects.workspaceId })
    .from(stages)
    .innerJoin(pipelines, eq(pipelines.id, stages.pipelineId))
    .innerJoin(projects, eq(projects.id, pipelines.projectId))
    .where(inArray(stages.id, ids))
    .orderBy(...nodeOrder);
}

async function presentStages(db: Db, workspaceId: number, ids: number[]): Promise<TStage[]> {
  const rows = await stagesWithWorkspace(db, ids);
  const people = await peopleOf(db, workspaceId, inArray(stages.id, ids));
  const rules = await rulesOfStages(db, ids);
  return rows.map((row) => ({ ...presentStage(row.stage, people), ...rules.get(row.stage.id) }));
}

/** GET stages/{id}/. */
export async function getStage(db: Db, { userId, stageId }: { userId: number; stageId: number }): Promise<TStage> {
  const rows = await stagesWithWorkspace(db, [stageId]);
  const actor = await authorizeStages(db, { userId, rows, action: 'view' });
  return (await presentStages(db, actor.workspaceId, [stageId]))[0]!;
}

/**
 * Applies one settings patch to stages of one pipeline, in one transaction: only the fields given
 * change. Start and end have no settings (400 when a patch touches them); default people must be
 * members of the workspace. Stage settings are not part of the graph's `version`.
 */
async function applyPatch(
  db: Db,
  { userId, stageIds, patch }: { userId: number; stageIds: number[]; patch: TStageUpdate },
): Promise<TStage[]> {
  const ids = [...new Set(stageIds)];
  const rows = await stagesWithWorkspace(db, ids);
  // Some stage missing or invisible: the same 404 as for one unknown id.
  if (rows.length !== ids.length) throw new AppError('not_found');
  // Every stage must be visible (404 otherwise) before the caller learns anything else about them.
  const [actor] = await Promise.all(
    [...new Set(rows.map((row) => row.workspaceId))].map((w) => actorIn(db, userId, w)),
  );
  if (new Set(rows.map((row) => row.stage.pipelineId)).size > 1) {
    throw new AppError('bad_request', StageMessages.onePipeline);
  }
  authorize(actor!, 'stage', 'update');
  if (hasSettings(patch) && rows.some((row) => row.stage.kind !== 'stage')) {
    throw new AppError('bad_request', StageMessages.startEndFixed);
  }
  assertOneDue(patch);
  await assertMembers(db, actor!.workspaceId, [
    { field: 'default_assignees', ids: patch.default_assignees },
    { field: 'default_reviewers', ids: patch.default_reviewers },
  ]);
  await assertStageRules(db, actor!.workspaceId, patch);
  assertEnforceChange(actor!, rows, patch);

  await db.transaction(async (tx) => {
    const columns = settingsColumns(patch);
    if (Object.keys(columns).length > 0) {
      await tx
        .update(stages)
        .set({ ...columns, updatedAt: new Date() })
        .where(inArray(stages.id, ids));
    }
    if (patch.default_assignees) {
      await replacePeople(tx, 'assignees', new Map(ids.map((id) => [id, patch.default_assignees!])));
    }
    if (patch.default_reviewers) {
      await replacePeople(tx, 'reviewers', new Map(ids.map((id) => [id, patch.default_reviewers!])));
    }
    await writeStageRules(tx, ids, patch);
  });
  return presentStages(db, actor!.workspaceId, ids);
}

/** PATCH stages/{id}/ (Member and above). */
export async function updateStage(
  db: Db,
  { userId, stageId, patch }: { userId: number; stageId: number; patch: TStageUpdate },
): Promise<TStage> {
  return (await applyPatch(db, { userId, stageIds: [stageId], patch }))[0]!;
}

/** POST stages/bulk_update/ (Member and above): the same changes to several stages of one pipeline. */
export async function bulkUpdateStages(
  db: Db,
  { userId, stageIds, patch }: { userId: number; stageIds: number[]; patch: TStageUpdate },
): Promise<TStage[]> {
  return applyPatch(db, { userId, stageIds, patch });
}
