import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { TReviewRules } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { idList, rowsOf } from './sql';

/**
 * Teams on tasks (docs/review-rules.md): a task's effective teams (the stage's default teams while
 * `use_stage_defaults`, else its own), their current members, and the stage's review rules as the
 * engine takes them.
 */

const { teams, teamMembers, memberships } = schema;

export type TaskTeams = { assigneeTeams: number[]; reviewerTeams: number[] };

/**
 * Rows (task_id, which: 'a' | 'r', team_id) of the effective assignee and reviewer teams of the tasks
 * `ids` (an `idList`): a fragment, so the people query can read them in the same statement.
 */
export const effectiveTeamRows = (ids: SQL) => sql`
    select t.id as task_id, 'a' as which, d.team_id from tasks t join stage_default_assignee_teams d on d.stage_id = t.stage_id
      where t.id in (${ids}) and t.use_stage_defaults
    union all
    select t.id, 'r', d.team_id from tasks t join stage_default_reviewer_teams d on d.stage_id = t.stage_id
      where t.id in (${ids}) and t.use_stage_defaults
    union all
    select t.id, 'a', o.team_id from tasks t join task_assignee_teams o on o.task_id = t.id
      where t.id in (${ids}) and not t.use_stage_defaults
    union all
    select t.id, 'r', o.team_id from tasks t join task_reviewer_teams o on o.task_id = t.id
      where t.id in (${ids}) and not t.use_stage_defaults`;

/** The effective assignee and reviewer teams of tasks, by task id. */
export async function effectiveTeams(db: Db, taskIds: readonly number[]): Promise<Map<number, TaskTeams>> {
  const result = new Map(taskIds.map((id) => [id, { assigneeTeams: [] as number[], reviewerTeams: [] as number[] }]));
  if (taskIds.length === 0) return result;
  const rows = await rowsOf<{ task_id: number; which: string; team_id: number }>(
    db,
    sql`${effectiveTeamRows(idList(taskIds))} order by 1, 3`,
  );
  for (const row of rows) {
    const entry = result.get(row.task_id)!;
    (row.which === 'a' ? entry.assigneeTeams : entry.reviewerTeams).push(row.team_id);
  }
  return result;
}

/** The members of teams who are still members of the workspace, by team id. */
export async function membersOfTeams(
  db: Db,
  workspaceId: number,
  teamIds: readonly number[],
): Promise<Map<number, number[]>> {
  const result = new Map<number, number[]>(teamIds.map((id) => [id, []]));
  if (teamIds.length === 0) return result;
  const rows = await db
    .select({ teamId: teamMembers.teamId, userId: teamMembers.userId })
    .from(teamMembers)
    .innerJoin(memberships, and(eq(memberships.userId, teamMembers.userId), eq(memberships.workspaceId, workspaceId)))
    .where(inArray(teamMembers.teamId, [...new Set(teamIds)]))
    .orderBy(asc(teamMembers.userId));
  for (const row of rows) result.get(row.teamId)?.push(row.userId);
  return result;
}

/** Team names by id. */
export async function teamNames(db: Db, teamIds: readonly number[]) {
  if (teamIds.length === 0) return new Map<number, { id: number; name: string; color: string }>();
  const rows = await db
    .select({ id: teams.id, name: teams.name, color: teams.color })
    .from(teams)
    .where(inArray(teams.id, [...new Set(teamIds)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** A stage's review rules as stored: the required total, self-review, team rules. */
export type StageReview = {
  requiredApprovals: number | null;
  allowSelfReview: boolean;
  /** Only Admins may skip the review (docs/review-rules.md, "Skipping review"). */
  enforceReview: boolean;
  teamRules: { team: number; required: number }[];
};

/**
 * The engine's rules of a task: each team rule counts the team's current members (`members`, by
 * team) but the task's assignees (a team reviewer rule does not count the assignee).
 */
export function reviewRulesFrom(
  review: StageReview,
  assignees: readonly number[],
  members: ReadonlyMap<number, readonly number[]>,
): TReviewRules {
  return {
    requiredApprovals: review.requiredApprovals,
    teamRules: review.teamRules.map((rule) => ({
      team: rule.team,
      required: rule.required,
      members: (members.get(rule.team) ?? []).filter((id) => !assignees.includes(id)),
    })),
  };
}

/** `reviewRulesFrom`, reading the rule teams' members. */
export async function reviewRulesOf(
  db: Db,
  workspaceId: number,
  review: StageReview,
  assignees: readonly number[],
): Promise<TReviewRules> {
  const members = await membersOfTeams(
    db,
    workspaceId,
    review.teamRules.map((r) => r.team),
  );
  return reviewRulesFrom(review, assignees, members);
}

/**
 * Ids of the tasks assigned to a team `userId` is in (the team queues): the stage's default teams
 * while `use_stage_defaults`, else the task's own. Driven from the user's team rows.
 */
export function tasksOfTeamsOf(userId: number, onlyTeam?: number): SQL {
  const team = onlyTeam === undefined ? sql`` : sql` and tm.team_id = ${onlyTeam}`;
  return sql`(select d_t.id from team_members tm join stage_default_assignee_teams d on d.team_id = tm.team_id
      join tasks d_t on d_t.stage_id = d.stage_id
      where tm.user_id = ${userId} and d_t.use_stage_defaults${team}
    union all
    select o.task_id from team_members tm join task_assignee_teams o on o.team_id = tm.team_id
      join tasks o_t on o_t.id = o.task_id
      where tm.user_id = ${userId} and not o_t.use_stage_defaults${team})`;
}

/** Ids of the tasks assigned to one team (the matrix's filter by a team). */
export function tasksOfTeam(teamId: number): SQL {
  return sql`(select d_t.id from stage_default_assignee_teams d join tasks d_t on d_t.stage_id = d.stage_id
      where d.team_id = ${teamId} and d_t.use_stage_defaults
    union all
    select o.task_id from task_assignee_teams o join tasks o_t on o_t.id = o.task_id
      where o.team_id = ${teamId} and not o_t.use_stage_defaults)`;
}
