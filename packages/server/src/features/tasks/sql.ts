import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db';

/**
 * SQL pieces the task reads share, so that lists, the matrix and counters compute readiness, the
 * effective due date and the effective people exactly as the engine's functions do
 * (`isReady`, `effectiveAssignment`, `isOverdue` of `@stageline/shared`). Each expects the task as
 * `t` (and `stageDue` its stage as `s`).
 */

export { rowsOf } from '../../db';

/** A moment passed from the server's clock, so SQL and JS agree on what "now" is. */
/** `1, 2, 3` as bound parameters, for `in (…)` of the raw SQL here. */
export const idList = (ids: readonly number[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

export const at = (now: Date) => sql`${now.toISOString()}::timestamptz`;

/**
 * The due date that applies (`effectiveAssignment`): the task's own, or its stage's default. Stored in
 * `tasks.effective_due` and kept by the database (migration 0014, decision 108), so lists sort and
 * filter by it through an index.
 */
export const effectiveDue = sql.raw('t.effective_due');

/** The lists' order on the effective due date, no date last: what `tasks_pipeline_due_idx` holds. */
export const dueOrder = sql.raw(`coalesce(t.effective_due, 'infinity'::timestamptz)`);

/**
 * The stage `s`'s default due date for task `t` (its fixed date, or days after `t` became ready):
 * the database's `stage_due`, the one SQL copy of the rule.
 */
export const stageDue = sql.raw('stage_due(s.default_due_date, s.default_due_days, t.ready_at)');

/** `isOverdue` in SQL: an effective due date before `now`, and not done. */
export const overdueAt = (now: Date) => sql`(t.status <> 'done' and ${effectiveDue} < ${at(now)})`;

/**
 * Whether `t` is ready: its stored `ready_at`, which `refreshReadiness` keeps after every change of
 * status or graph. Every read (lists, the matrix, the task) takes readiness from it, so the rule has
 * one copy in SQL (`refreshReadiness`) beside the engine's `isReady`.
 */
export const readySql = sql.raw('(t.ready_at is not null)');

/**
 * Ids of the tasks where `userId` is an effective assignee or reviewer: stage defaults while
 * `use_stage_defaults`, else the task's own people. Driven from the user's rows (indexed by user),
 * so "my tasks" never scans every task.
 */
export function tasksOfPerson(which: 'assignees' | 'reviewers', userId: number): SQL {
  const defaults = which === 'assignees' ? 'stage_default_assignees' : 'stage_default_reviewers';
  const own = which === 'assignees' ? 'task_assignees' : 'task_reviewers';
  // Teams and review rules: a reviewer team makes its members (but the assignees) reviewers.
  const throughTeams = which === 'reviewers' ? sql` union all ${tasksReviewedThroughTeams(userId)}` : sql``;
  return sql`(select d_t.id from ${sql.raw(defaults)} d join tasks d_t on d_t.stage_id = d.stage_id
      where d.user_id = ${userId} and d_t.use_stage_defaults
    union all
    select o.task_id from ${sql.raw(own)} o join tasks o_t on o_t.id = o.task_id
      where o.user_id = ${userId} and not o_t.use_stage_defaults${throughTeams})`;
}

/**
 * Ids of the tasks `userId` reviews through a reviewer team (not as an assignee of the task): what
 * "reviewer=me" adds to the person's own rows.
 */
export function tasksReviewedThroughTeams(userId: number): SQL {
  return sql`(select d_t.id from team_members tm join stage_default_reviewer_teams d on d.team_id = tm.team_id
      join tasks d_t on d_t.stage_id = d.stage_id
      where tm.user_id = ${userId} and d_t.use_stage_defaults
        and not exists (select 1 from stage_default_assignees a where a.stage_id = d_t.stage_id and a.user_id = ${userId})
    union all
    select o.task_id from team_members tm join task_reviewer_teams o on o.team_id = tm.team_id
      join tasks o_t on o_t.id = o.task_id
      where tm.user_id = ${userId} and not o_t.use_stage_defaults
        and not exists (select 1 from task_assignees a where a.task_id = o_t.id and a.user_id = ${userId}))`;
}

/**
 * Sets `ready_at` of the tasks matched by `where` (a condition on `t`) to when they became ready,
 * or null while they are not: set-based, writing only the rows whose readiness changed. The SQL
 * copy of `isReady`: no predecessor stage (start excluded) has its task of this unit not done; a
 * test checks the two agree (`readiness.test.ts`).
 */
export async function refreshReadiness(db: Db, where: SQL, now: Date): Promise<void> {
  await db.execute(sql`
    with scope as (select t.id, t.unit_id, t.stage_id, t.ready_at from tasks t where ${where}),
    blocked as (
      select distinct sc.id from scope sc
      join stage_edges e on e.target_id = sc.stage_id
      join stages ps on ps.id = e.source_id and ps.kind = 'stage'
      join tasks p on p.unit_id = sc.unit_id and p.stage_id = e.source_id
      where p.status <> 'done')
    update tasks set ready_at = case when b.id is null then ${at(now)} else null end
    from scope sc left join blocked b on b.id = sc.id
    where tasks.id = sc.id and ((b.id is null) <> (sc.ready_at is not null))`);
}
