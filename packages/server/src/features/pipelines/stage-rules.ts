import { asc, inArray } from 'drizzle-orm';
import { atLeast, type TStageReviewRules, type TStageUpdate } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { assertTeams } from '../teams';
import type { Actor } from '../workspaces';

const { stages, stageDefaultAssigneeTeams, stageDefaultReviewerTeams, stageTeamRules } = schema;

export const duplicateTeamRule = 'Each team can have one rule.';
export const enforceAdminsOnly = 'Only Admins can change whether a stage enforces its review.';

/**
 * `enforce_review` binds Members, so only Admins and the owner change it (a Member who could turn
 * it off would not be bound); a patch that repeats the current value is fine (docs/review-rules.md).
 */
export function assertEnforceChange(
  actor: Actor,
  rows: { stage: { enforceReview: boolean } }[],
  patch: TStageUpdate,
): void {
  const changes =
    patch.enforce_review !== undefined && rows.some((row) => row.stage.enforceReview !== patch.enforce_review);
  if (changes && !atLeast(actor.role, 'admin'))
    throw new AppError('permission_denied', enforceAdminsOnly, {}, {}, { rule: 'enforced_review' });
}

/** A stage's review rules and team defaults (docs/review-rules.md), by stage id. */
export async function rulesOfStages(db: Db, ids: number[]): Promise<Map<number, TStageReviewRules>> {
  const result = new Map<number, TStageReviewRules>();
  if (ids.length === 0) return result;
  const rows = await db
    .select({
      id: stages.id,
      requiredApprovals: stages.requiredApprovals,
      allowSelfReview: stages.allowSelfReview,
      enforceReview: stages.enforceReview,
    })
    .from(stages)
    .where(inArray(stages.id, ids));
  for (const row of rows) {
    result.set(row.id, {
      required_approvals: row.requiredApprovals,
      allow_self_review: row.allowSelfReview,
      enforce_review: row.enforceReview,
      team_rules: [],
      default_assignee_teams: [],
      default_reviewer_teams: [],
    });
  }
  const links = async (table: typeof stageDefaultAssigneeTeams) =>
    db
      .select({ stageId: table.ownerId, teamId: table.teamId })
      .from(table)
      .where(inArray(table.ownerId, ids))
      .orderBy(asc(table.teamId));
  for (const row of await links(stageDefaultAssigneeTeams))
    result.get(row.stageId)?.default_assignee_teams.push(row.teamId);
  for (const row of await links(stageDefaultReviewerTeams))
    result.get(row.stageId)?.default_reviewer_teams.push(row.teamId);
  const rules = await db
    .select()
    .from(stageTeamRules)
    .where(inArray(stageTeamRules.stageId, ids))
    .orderBy(asc(stageTeamRules.teamId));
  for (const rule of rules) result.get(rule.stageId)?.team_rules.push({ team: rule.teamId, required: rule.required });
  return result;
}

/** Checks the rules' part of a patch: teams of the workspace, one rule per team. */
export async function assertStageRules(db: Db, workspaceId: number, patch: TStageUpdate): Promise<void> {
  const ruleTeams = patch.team_rules?.map((r) => r.team);
  if (ruleTeams && new Set(ruleTeams).size !== ruleTeams.length)
    throw new FieldError({ team_rules: [duplicateTeamRule] });
  await assertTeams(db, workspaceId, [
    { field: 'default_assignee_teams', ids: patch.default_assignee_teams },
    { field: 'default_reviewer_teams', ids: patch.default_reviewer_teams },
    { field: 'team_rules', ids: ruleTeams },
  ]);
}

/** Writes the rules' part of a patch to the stages, in the caller's transaction: only what it gives. */
export async function writeStageRules(tx: Db, ids: number[], patch: TStageUpdate): Promise<void> {
  const columns = {
    ...(patch.required_approvals !== undefined ? { requiredApprovals: patch.required_approvals } : {}),
    ...(patch.allow_self_review !== undefined ? { allowSelfReview: patch.allow_self_review } : {}),
    ...(patch.enforce_review !== undefined ? { enforceReview: patch.enforce_review } : {}),
  };
  if (Object.keys(columns).length > 0) await tx.update(stages).set(columns).where(inArray(stages.id, ids));
  const replace = async (table: typeof stageDefaultAssigneeTeams, teams: number[] | undefined) => {
    if (!teams) return;
    await tx.delete(table).where(inArray(table.ownerId, ids));
    const rows = ids.flatMap((ownerId) => [...new Set(teams)].map((teamId) => ({ ownerId, teamId })));
    if (rows.length > 0) await tx.insert(table).values(rows);
  };
  await replace(stageDefaultAssigneeTeams, patch.default_assignee_teams);
  await replace(stageDefaultReviewerTeams, patch.default_reviewer_teams);
  if (patch.team_rules) {
    await tx.delete(stageTeamRules).where(inArray(stageTeamRules.stageId, ids));
    const rows = ids.flatMap((stageId) =>
      patch.team_rules!.map((r) => ({ stageId, teamId: r.team, required: r.required })),
    );
    if (rows.length > 0) await tx.insert(stageTeamRules).values(rows);
  }
}
