import { eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  isOverdue,
  type TTaskList,
  type TTaskListItem,
  type TTaskStatus,
  type ZTaskListQuery,
} from '@stageline/shared';
import type { z } from 'zod';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { actorIn, inWorkspacesOf } from '../workspaces';
import { effectiveDue, overdueAt, readySql, rowsOf, tasksOfPerson } from './sql';
import { effectiveTeams, tasksOfTeamsOf, teamNames } from './teams';

type Query = z.infer<typeof ZTaskListQuery>;
/** The filters of a task list, without its paging. */
type Filters = Omit<Query, 'offset' | 'limit'>;

type Row = {
  id: number;
  status: TTaskStatus;
  ready: boolean;
  due: Date | string | null;
  unit_id: number;
  unit_name: string;
  stage_id: number;
  stage_name: string;
  pipeline_id: number;
  pipeline_name: string;
  project_id: number;
  project_name: string;
  workspace_id: number;
  total: number;
};

/** The workspace of a pipeline or unit named by a filter: 404 when the caller cannot see it. */
async function checkParent(db: Db, userId: number, query: Filters): Promise<void> {
  const { pipelines, projects, units } = schema;
  if (query.workspace !== undefined) await actorIn(db, userId, query.workspace);
  if (query.pipeline !== undefined) {
    const [row] = await db
      .select({ workspaceId: projects.workspaceId })
      .from(pipelines)
      .innerJoin(projects, eq(projects.id, pipelines.projectId))
      .where(eq(pipelines.id, query.pipeline));
    if (!row) throw new AppError('not_found');
    await actorIn(db, userId, row.workspaceId);
  }
  if (query.unit !== undefined) {
    const [row] = await db
      .select({ workspaceId: projects.workspaceId })
      .from(units)
      .innerJoin(projects, eq(projects.id, units.projectId))
      .where(eq(units.id, query.unit));
    if (!row) throw new AppError('not_found');
    await actorIn(db, userId, row.workspaceId);
  }
}

/** In review with an open round (the task's latest) that `personId` has not reacted to yet. */
function awaitingReaction(personId: number): SQL {
  return sql`(t.status = 'review'
    and exists (select 1 from task_iterations i
      where i.task_id = t.id and i.number = t.iteration_number and not i.closed)
    and not exists (select 1 from task_reactions r
      where r.task_id = t.id and r.iteration = t.iteration_number and r.user_id = ${personId}))`;
}

/**
 * GET tasks/ (My work and every task list): tasks in the caller's workspaces, filtered by effective
 * assignee or reviewer ('me' or an id), workspace, pipeline, unit, status, readiness, overdue,
 * awaiting the reviewer's reaction in the open round, and workable (to do, in progress, edit);
 * soonest due first (no due date last), then by id. One query; "my tasks" start from the person's
 * rows, so a user with 1,000 tasks costs 1,000 rows, not a scan of every task.
 */
export async function listTasks(db: Db, { userId, query }: { userId: number; query: Query }): Promise<TTaskList> {
  const now = new Date();
  const from = await matchingTasks(db, { userId, query, now });
  const rows = await rowsOf<Row>(
    db,
    sql`
    select t.id, t.status, ${readySql} as ready, ${effectiveDue} as due,
      u.id as unit_id, u.name as unit_name, s.id as stage_id, s.name as stage_name,
      p.id as pipeline_id, p.name as pipeline_name, pr.id as project_id, pr.name as project_name,
      pr.workspace_id, count(*) over ()::int as total
    ${from}
    order by due asc nulls last, t.id asc
    limit ${query.limit} offset ${query.offset}`,
  );
  // A page past the end has no row to carry the window's count.
  const count = rows[0]
    ? Number(rows[0].total)
    : query.offset === 0
      ? 0
      : Number((await rowsOf<{ n: number }>(db, sql`select count(*)::int as n ${from}`))[0]?.n ?? 0);
  const end = query.offset + rows.length;
  const results = rows.map((row) => presentRow(row, now));
  if (query.queue === 'team') await addAssigneeTeams(db, results);
  return { count, next: end < count ? end : null, results };
}

/** A team queue's rows name the teams each task waits in. */
async function addAssigneeTeams(db: Db, items: TTaskListItem[]): Promise<void> {
  const teams = await effectiveTeams(
    db,
    items.map((i) => i.id),
  );
  const names = await teamNames(
    db,
    [...teams.values()].flatMap((t) => t.assigneeTeams),
  );
  for (const item of items) {
    item.assignee_teams = (teams.get(item.id)?.assigneeTeams ?? []).flatMap((id) => {
      const team = names.get(id);
      return team ? [team] : [];
    });
  }
}

function presentRow(row: Omit<Row, 'total'>, now: Date): TTaskListItem {
  const status = row.status;
  const due = row.due === null ? null : new Date(row.due);
  return {
    id: row.id,
    workspace: row.workspace_id,
    unit: { id: row.unit_id, name: row.unit_name },
    stage: { id: row.stage_id, name: row.stage_name },
    pipeline: { id: row.pipeline_id, name: row.pipeline_name },
    project: { id: row.project_id, name: row.project_name },
    status,
    ready: row.ready,
    overdue: isOverdue(due, status, now),
    due_date: due?.toISOString() ?? null,
  };
}

/** The effective assignees' usernames of task `t` (members of its workspace `pr` only), sorted. */
const assigneeNames = sql.raw(`(case when t.use_stage_defaults
  then array(select us.username from stage_default_assignees d join users us on us.id = d.user_id
    join memberships m on m.user_id = d.user_id and m.workspace_id = pr.workspace_id
    where d.stage_id = t.stage_id order by us.username)
  else array(select us.username from task_assignees a join users us on us.id = a.user_id
    join memberships m on m.user_id = a.user_id and m.workspace_id = pr.workspace_id
    where a.task_id = t.id order by us.username) end)`);

/**
 * GET tasks/export.csv: every task `GET tasks/` would list with the same filters (no paging), in
 * its order, with the effective assignees' usernames.
 */
export async function exportTasks(
  db: Db,
  { userId, query }: { userId: number; query: Filters },
): Promise<(TTaskListItem & { assignees: string[] })[]> {
  const now = new Date();
  const from = await matchingTasks(db, { userId, query, now });
  const rows = await rowsOf<Omit<Row, 'total'> & { assignees: string[] }>(
    db,
    sql`
    select t.id, t.status, ${readySql} as ready, ${effectiveDue} as due,
      u.id as unit_id, u.name as unit_name, s.id as stage_id, s.name as stage_name,
      p.id as pipeline_id, p.name as pipeline_name, pr.id as project_id, pr.name as project_name,
      pr.workspace_id, ${assigneeNames} as assignees
    ${from}
    order by due asc nulls last, t.id asc`,
  );
  return rows.map((row) => ({ ...presentRow(row, now), assignees: row.assignees }));
}

/**
 * The `from … where …` of the tasks the filters of `GET tasks/` select (tasks `t`, stages `s`,
 * units `u`, pipelines `p`, projects `pr`), after checking that named parents are visible.
 */
async function matchingTasks(db: Db, { userId, query, now }: { userId: number; query: Filters; now: Date }) {
  await checkParent(db, userId, query);
  // The tenant condition on the query's `pr` (projects).
  const where: SQL[] = [inWorkspacesOf(userId, alias(schema.projects, 'pr').workspaceId)];
  const person = (value: 'me' | number | undefined) => (value === 'me' ? userId : value);
  const assignee = person(query.assignee);
  // Awaiting someone's review names that someone: the reviewer filter, else the caller.
  const reviewer = person(query.reviewer ?? (query.awaiting ? 'me' : undefined));
  if (assignee !== undefined) where.push(sql`t.id in ${tasksOfPerson('assignees', assignee)}`);
  if (reviewer !== undefined) where.push(sql`t.id in ${tasksOfPerson('reviewers', reviewer)}`);
  if (assignee !== undefined && assignee !== userId) where.push(memberOfTask(assignee));
  if (reviewer !== undefined && reviewer !== userId) where.push(memberOfTask(reviewer));
  if (query.workspace !== undefined) where.push(sql`pr.workspace_id = ${query.workspace}`);
  if (query.pipeline !== undefined) where.push(sql`s.pipeline_id = ${query.pipeline}`);
  if (query.unit !== undefined) where.push(sql`t.unit_id = ${query.unit}`);
  if (query.status !== undefined) where.push(sql`t.status = ${query.status}`);
  if (query.ready !== undefined) where.push(query.ready === 'true' ? readySql : sql`not ${readySql}`);
  if (query.awaiting && reviewer !== undefined) where.push(awaitingReaction(reviewer));
  if (query.workable) where.push(sql`t.status in ('todo', 'in_progress', 'edit')`);
  // Teams and review rules: the caller's team queues, until someone takes the task (or it is done).
  if (query.queue === 'team') where.push(sql`t.id in ${tasksOfTeamsOf(userId)} and t.status <> 'done'`);
  if (query.overdue !== undefined) where.push(query.overdue === 'true' ? overdueAt(now) : sql`not ${overdueAt(now)}`);

  const from = sql`
    from tasks t
    join stages s on s.id = t.stage_id
    join units u on u.id = t.unit_id
    join pipelines p on p.id = s.pipeline_id
    join projects pr on pr.id = p.project_id
    where ${sql.join(where, sql` and `)}`;
  return from;

  /** Someone else's tasks count only while they are a member of the task's workspace. */
  function memberOfTask(personId: number): SQL {
    return sql`exists (select 1 from memberships m where m.user_id = ${personId} and m.workspace_id = pr.workspace_id)`;
  }
}
