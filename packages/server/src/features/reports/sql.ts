import { sql, type SQL } from 'drizzle-orm';
import { idList, overdueAt, tasksOfPerson } from '../tasks';

/**
 * The reports' statements (docs/reports.md), one per report part, built from a scope the service
 * has checked. Each reads the task history (`task_history`) only through its task index
 * (`task_history_task_id_created_at_idx`), driven from the scope's tasks, which are found by stage
 * (`tasks_stage_id_status_idx`); `explain.test.ts` asserts that no plan scans the history table.
 */

export type ReportScope = {
  projectId: number;
  /** The stages reported on (never empty: the service answers without SQL when it is). */
  stageIds: number[];
  person: number | null;
  /** The range as instants: `from` 00:00 UTC, and the day after `to` 00:00 UTC (excluded). */
  start: Date;
  end: Date;
  now: Date;
};

const ts = (moment: Date) => sql`${moment.toISOString()}::timestamptz`;
const utcDay = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

/** Submitted for review by the person at least once (the history reports' person filter). */
const submittedBy = (person: number | null, task: SQL) =>
  person === null
    ? sql``
    : sql` and exists (select 1 from task_history ph where ph.task_id = ${task}
        and ph.action = 'submit' and ph.actor_id = ${person})`;

/** The scope's tasks, as `sc` (id, stage_id, created_at). */
const scopeCte = (scope: ReportScope) =>
  sql`sc as (select t.id, t.stage_id, t.created_at from tasks t
    where t.stage_id in (${idList(scope.stageIds)})${submittedBy(scope.person, sql.raw('t.id'))})`;

/**
 * Burn-up: per stage, the change of "done" on each day of the range (+1 entering done, -1 leaving
 * it), with the days before the range summed into one row (`day` null), so the service adds them
 * up into the count at the end of each day.
 */
export function burnupDoneSql(scope: ReportScope): SQL {
  return sql`with ${scopeCte(scope)}
    select sc.stage_id,
      case when h.created_at < ${ts(scope.start)} then null else ${utcDay(sql.raw('h.created_at'))} end as day,
      sum(case when h.to_status = 'done' then 1 else -1 end)::int as delta
    from sc join task_history h on h.task_id = sc.id
    where h.created_at < ${ts(scope.end)}
      and (coalesce(h.to_status, '') = 'done') <> (coalesce(h.from_status, '') = 'done')
    group by 1, 2`;
}

/** Burn-up's scope line: tasks made per day of the range per stage (those before it in one row). */
export function burnupScopeSql(scope: ReportScope): SQL {
  return sql`with ${scopeCte(scope)}
    select sc.stage_id,
      case when sc.created_at < ${ts(scope.start)} then null else ${utcDay(sql.raw('sc.created_at'))} end as day,
      count(*)::int as made
    from sc where sc.created_at < ${ts(scope.end)}
    group by 1, 2`;
}

/** Throughput: entries into done per stage and week (Monday, UTC) within the range. */
export function throughputSql(scope: ReportScope): SQL {
  return sql`with ${scopeCte(scope)}
    select sc.stage_id,
      to_char(date_trunc('week', h.created_at at time zone 'UTC'), 'YYYY-MM-DD') as week,
      count(*)::int as done
    from sc join task_history h on h.task_id = sc.id
    where h.created_at >= ${ts(scope.start)} and h.created_at < ${ts(scope.end)}
      and h.to_status = 'done' and coalesce(h.from_status, '') <> 'done'
    group by 1, 2`;
}

/**
 * First pass: round 1 of each task, closed by its reviewers within the range (accepted: `done`;
 * not: `edit` or `returned`; a round closed by a status change, `overridden`, is no review and is
 * left out), with who opened it (the history entry that put the task in review in round 1). The
 * person filter here is that submitter.
 */
export function firstPassSql(scope: ReportScope): SQL {
  return sql`with sc as (select t.id, t.stage_id from tasks t where t.stage_id in (${idList(scope.stageIds)})),
    openers as (
      select distinct on (h.task_id) h.task_id, h.actor_id
      from sc join task_history h on h.task_id = sc.id
      where h.iteration = 1 and h.to_status = 'review' and coalesce(h.from_status, '') <> 'review'
      order by h.task_id, h.created_at, h.id),
    firsts as (
      select sc.stage_id, i.outcome = 'done' as accepted, o.actor_id as submitter
      from sc join task_iterations i on i.task_id = sc.id and i.number = 1
      left join openers o on o.task_id = sc.id
      where i.closed and i.outcome in ('done', 'edit', 'returned')
        and i.closed_at >= ${ts(scope.start)} and i.closed_at < ${ts(scope.end)})
    select f.stage_id, f.submitter, u.first_name, u.last_name, u.username,
      count(*)::int as rounds, count(*) filter (where f.accepted)::int as accepted
    from firsts f left join users u on u.id = f.submitter
    ${scope.person === null ? sql`` : sql`where f.submitter = ${scope.person}`}
    group by f.stage_id, f.submitter, u.first_name, u.last_name, u.username`;
}

/**
 * Rounds per task: the tasks done now whose last entry into done falls in the range and that had
 * at least one review round, with their number of rounds (`iteration_number`).
 */
export function roundsSql(scope: ReportScope): SQL {
  return sql`with sc as (select t.id, t.stage_id, t.iteration_number from tasks t
      where t.stage_id in (${idList(scope.stageIds)}) and t.status = 'done' and t.iteration_number > 0
        ${submittedBy(scope.person, sql.raw('t.id'))}),
    last_done as (
      select h.task_id, max(h.created_at) as at
      from sc join task_history h on h.task_id = sc.id
      where h.to_status = 'done' and coalesce(h.from_status, '') <> 'done'
      group by h.task_id),
    finished as (
      select sc.stage_id, sc.iteration_number as rounds from sc join last_done d on d.task_id = sc.id
      where d.at between ${ts(scope.start)} and ${ts(new Date(scope.end.getTime() - 1))})
    select f.stage_id, count(*)::int as tasks, avg(f.rounds)::float8 as rounds_mean,
      percentile_disc(0.9) within group (order by f.rounds) as rounds_p90
    from finished f group by grouping sets ((f.stage_id), ())`;
}

/**
 * Time in review and in edit: each stay of a task in `review` or `edit` that began in the range,
 * from the status change into it to the next status change of the task (or now, while it lasts),
 * summed per task, then averaged over the tasks that had such a stay, per stage.
 */
export function staysSql(scope: ReportScope): SQL {
  return sql`with ${scopeCte(scope)},
    changes as (
      select sc.id, sc.stage_id, h.to_status, h.created_at,
        lead(h.created_at) over (partition by h.task_id order by h.created_at, h.id) as left_at
      from sc join task_history h on h.task_id = sc.id
      where coalesce(h.from_status, '') <> coalesce(h.to_status, '')),
    per_task as (
      select c.stage_id, c.id, c.to_status,
        sum(extract(epoch from coalesce(c.left_at, ${ts(scope.now)}) - c.created_at)) / 3600 as hours
      from changes c
      where c.to_status in ('review', 'edit')
        and c.created_at >= ${ts(scope.start)} and c.created_at < ${ts(scope.end)}
      group by c.stage_id, c.id, c.to_status)
    select p.stage_id,
      avg(p.hours) filter (where p.to_status = 'review')::float8 as review_hours,
      avg(p.hours) filter (where p.to_status = 'edit')::float8 as edit_hours
    from per_task p group by grouping sets ((p.stage_id), ())`;
}

/**
 * Overdue and blocked now, per stage: open tasks (not done), those overdue (`overdueAt`), those not
 * ready (`ready_at` null: the rule of `isReady`, kept by `refreshReadiness`), and for each blocked
 * task every predecessor stage (a stage, not the start) whose task of the same unit is not done —
 * the same join `refreshReadiness` makes. The person filter is the task's effective assignee.
 */
export function blockingSql(scope: ReportScope): SQL {
  const mine = scope.person === null ? sql`` : sql` and t.id in ${tasksOfPerson('assignees', scope.person)}`;
  return sql`with open_tasks as (
      select t.id, t.unit_id, t.stage_id, ${overdueAt(scope.now)} as overdue, t.ready_at is null as blocked
      from tasks t where t.stage_id in (${idList(scope.stageIds)}) and t.status <> 'done'${mine}),
    counts as (
      select o.stage_id, null::int as upstream, count(*)::int as open,
        count(*) filter (where o.overdue)::int as overdue, count(*) filter (where o.blocked)::int as blocked
      from open_tasks o group by o.stage_id),
    upstream as (
      select o.stage_id, e.source_id as upstream, 0 as open, 0 as overdue, count(*)::int as blocked
      from open_tasks o
      join stage_edges e on e.target_id = o.stage_id
      join stages ps on ps.id = e.source_id and ps.kind = 'stage'
      join tasks p on p.unit_id = o.unit_id and p.stage_id = e.source_id
      where o.blocked and p.status <> 'done'
      group by o.stage_id, e.source_id)
    select * from counts union all select * from upstream`;
}

/** A calendar day of the range as a `date` (the instants are 00:00 UTC). */
const utcDate = (moment: Date) => sql`${moment.toISOString().slice(0, 10)}::date`;

/**
 * The time logs behind estimate vs spent (docs/reports.md): `logged` is each person's hours on each
 * of the scope's tasks up to the range's last day, with the task's total (`total`) and whether the
 * task counts (`counted`: a log dated in the range, by the person when filtered). One pass over the
 * project's logs by day (`time_logs_project_date_idx`), tasks by key; no join of two materialized
 * sets, which the planner cannot size (the first version took seconds at 500,000 logs).
 */
const loggedCte = (scope: ReportScope) => {
  const byPerson = scope.person === null ? sql`` : sql` and p.user_id = ${scope.person}`;
  return sql`per as (
      select l.task_id, l.user_id, sum(l.hours)::float8 as hours, bool_or(l.date >= ${utcDate(scope.start)}) as in_range
      from time_logs l join tasks t on t.id = l.task_id
      where l.project_id = ${scope.projectId} and l.date < ${utcDate(scope.end)}
        and t.stage_id in (${idList(scope.stageIds)})
      group by l.task_id, l.user_id),
    logged as (
      select p.task_id, p.user_id, p.hours,
        sum(p.hours) over (partition by p.task_id) as total,
        bool_or(p.in_range${byPerson}) over (partition by p.task_id) as counted
      from per p)`;
};

/**
 * Estimate vs spent per stage, per person who logged, and over all (`grouping` says which): a
 * person's estimate is their share of each task's estimate, by their part of its hours, so the
 * people's estimates add up to the stage's.
 */
export function estimatesSql(scope: ReportScope): SQL {
  return sql`with ${loggedCte(scope)}
    select grouping(t.stage_id, g.user_id) as level, t.stage_id, g.user_id,
      min(u.first_name) as first_name, min(u.last_name) as last_name, min(u.username) as username,
      count(distinct t.id)::int as tasks,
      count(distinct t.id) filter (where t.estimate_hours is not null)::int as estimated_tasks,
      coalesce(sum(t.estimate_hours::float8 * g.hours / g.total) filter (where t.estimate_hours is not null), 0)::float8 as estimate_hours,
      coalesce(sum(g.hours) filter (where t.estimate_hours is not null), 0)::float8 as spent_hours,
      coalesce(sum(g.hours) filter (where t.estimate_hours is null), 0)::float8 as unestimated_hours
    from logged g join tasks t on t.id = g.task_id
    left join users u on u.id = g.user_id
    where g.counted${scope.person === null ? sql`` : sql` and g.user_id = ${scope.person}`}
    group by grouping sets ((t.stage_id), (g.user_id), ())`;
}

/** The tasks of `estimatesSql` furthest over their estimate (all their hours), the largest first. */
export function overrunsSql(scope: ReportScope, limit: number): SQL {
  return sql`with ${loggedCte(scope)}
    select t.id, t.stage_id, un.id as unit_id, un.name as unit_name, t.estimate_hours::float8 as estimate, g.total
    from (select distinct on (task_id) task_id, total from logged where counted order by task_id) g
    join tasks t on t.id = g.task_id join units un on un.id = t.unit_id
    where t.estimate_hours is not null and g.total > t.estimate_hours
    order by g.total - t.estimate_hours desc, t.id limit ${limit}`;
}
