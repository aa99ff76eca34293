import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  isOverdue,
  type TTaskList,
  type TTaskListItem,
  type TTaskStatus,
  type ZTaskListQuery,
} from '@stageline/shared';
import type { z } from 'zod';
import { schema, type Db } from '../../db';
import { isRowId, readCursor, writeCursor } from '../../http/cursor';
import { AppError } from '../../http/errors';
import { actorIn } from '../workspaces';
import { dueOrder, effectiveDue, overdueAt, readySql, rowsOf, tasksOfPerson } from './sql';
import { effectiveTeams, tasksOfTeamsOf, teamNames } from './teams';

type Query = z.infer<typeof ZTaskListQuery>;
/** The filters of a task list, without its paging. */
type Filters = Omit<Query, 'offset' | 'limit' | 'after'>;

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

/**
 * Checks that the workspace, pipeline or unit a filter names is visible to the caller (404 if not),
 * each in one statement that reads the record only through the caller's membership. Answers the
 * named pipeline's stored task count and workspace.
 */
async function checkParent(
  db: Db,
  userId: number,
  query: Filters,
): Promise<{ tasksCount: number; workspaceId: number } | undefined> {
  const { memberships, pipelines, projects, units } = schema;
  const member = (workspaceId: typeof projects.workspaceId) =>
    and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId));
  if (query.workspace !== undefined) await actorIn(db, userId, query.workspace);
  let pipeline: { tasksCount: number; workspaceId: number } | undefined;
  if (query.pipeline !== undefined) {
    [pipeline] = await db
      .select({ tasksCount: pipelines.tasksCount, workspaceId: projects.workspaceId })
      .from(pipelines)
      .innerJoin(projects, eq(projects.id, pipelines.projectId))
      .innerJoin(memberships, member(projects.workspaceId))
      .where(eq(pipelines.id, query.pipeline));
    if (!pipeline) throw new AppError('not_found');
  }
  if (query.unit !== undefined) {
    const [row] = await db
      .select({ id: units.id })
      .from(units)
      .innerJoin(projects, eq(projects.id, units.projectId))
      .innerJoin(memberships, member(projects.workspaceId))
      .where(eq(units.id, query.unit));
    if (!row) throw new AppError('not_found');
  }
  return pipeline;
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
 * soonest effective due date first (none last), then by id. One query for the page; "my tasks" start
 * from the person's rows, so a user with 1,000 tasks costs 1,000 rows, not a scan of every task, and
 * a pipeline's page is read in order from `tasks_pipeline_due_idx`. `after` pages by key; the count
 * is the pipeline's stored one when nothing else narrows the list (decision 108).
 */
export async function listTasks(db: Db, { userId, query }: { userId: number; query: Query }): Promise<TTaskList> {
  const now = new Date();
  const after = readCursor(query.after, query.offset, (key) =>
    key.length === 2 && (key[0] === null || isDate(key[0])) && isRowId(key[1])
      ? { due: key[0] === null ? 'infinity' : key[0], id: key[1] }
      : undefined,
  );
  const { where, pipeline } = await matchingTasks(db, { userId, query, now });
  const narrowed = Object.entries(query).some(
    ([name, value]) => value !== undefined && !['pipeline', 'after', 'offset', 'limit'].includes(name),
  );
  const known = pipeline && !narrowed ? pipeline.tasksCount : undefined;
  const counted = known === undefined && !after ? sql`count(*) over ()` : sql`null`;
  const keyed = after ? sql` and (${dueOrder}, t.id) > (${after.due}::timestamptz, ${after.id}::integer)` : sql``;
  // The page is picked from `tasks` alone, so a pipeline's page is a range of its index whatever the
  // planner guesses of the rows past a cursor; its names are joined to those rows only. One more row
  // than the page tells whether a next page exists.
  const rows = await rowsOf<Row>(
    db,
    sql`
    select ${listColumns}, t.total
    from (select t.*, ${counted}::int as total from tasks t where ${where}${keyed}
      order by ${dueOrder}, t.id
      limit ${query.limit + 1} offset ${query.offset}) t
    ${namesOfTask}
    order by ${dueOrder}, t.id`,
  );
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  // A page past the end, or after a cursor, has no row carrying the window's count.
  const count =
    known ??
    (rows[0] && !after
      ? Number(rows[0].total)
      : !after && query.offset === 0
        ? 0
        : Number(
            (await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from tasks t where ${where}`))[0]?.n ?? 0,
          ));
  const last = page.at(-1);
  const end = query.offset + page.length;
  const results = page.map((row) => presentRow(row, now));
  if (query.queue === 'team') await addAssigneeTeams(db, results);
  return {
    count,
    next: !after && more ? end : null,
    next_cursor:
      more && last ? writeCursor([last.due === null ? null : new Date(last.due).toISOString(), last.id]) : null,
    results,
  };
}

/** An ISO moment as a cursor holds it. */
const isDate = (value: unknown): value is string =>
  typeof value === 'string' && !Number.isNaN(Date.parse(value)) && new Date(value).toISOString() === value;

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
  const { where } = await matchingTasks(db, { userId, query, now });
  const rows = await rowsOf<Omit<Row, 'total'> & { assignees: string[] }>(
    db,
    sql`
    select ${listColumns}, ${assigneeNames} as assignees
    from tasks t ${namesOfTask}
    where ${where}
    order by ${dueOrder}, t.id`,
  );
  return rows.map((row) => ({ ...presentRow(row, now), assignees: row.assignees }));
}

/** The columns of a list's row (`Row`), over a task `t` and `namesOfTask`. */
const listColumns = sql`t.id, t.status, ${readySql} as ready, ${effectiveDue} as due,
      u.id as unit_id, u.name as unit_name, s.id as stage_id, s.name as stage_name,
      p.id as pipeline_id, p.name as pipeline_name, pr.id as project_id, pr.name as project_name,
      pr.workspace_id`;

/** A task's stage `s`, unit `u`, pipeline `p` and project `pr`: the names a list shows. */
const namesOfTask = sql.raw(`join stages s on s.id = t.stage_id
    join units u on u.id = t.unit_id
    join pipelines p on p.id = t.pipeline_id
    join projects pr on pr.id = p.project_id`);

/**
 * `t` is in a pipeline of a workspace matching `condition` (on projects `pr`): the pipelines'
 * ids as one array, computed once for the statement (an InitPlan), so the condition never turns into
 * a join that would lose the order of `tasks_pipeline_due_idx`.
 */
const inPipelinesWhere = (condition: SQL) =>
  sql`t.pipeline_id = any(array(select p.id from pipelines p join projects pr on pr.id = p.project_id where ${condition}))`;

/** The workspaces of `personId`, for a condition on projects `pr`. */
const workspacesOf = (personId: number) =>
  sql`pr.workspace_id in (select m.workspace_id from memberships m where m.user_id = ${personId})`;

/**
 * The conditions, on tasks `t` alone, that the filters of `GET tasks/` select, after checking that
 * named parents are visible. A named pipeline was checked through the caller's membership, so its
 * tasks need no other tenant condition; any other list keeps to the pipelines of the caller's
 * workspaces.
 */
async function matchingTasks(db: Db, { userId, query, now }: { userId: number; query: Filters; now: Date }) {
  const pipeline = await checkParent(db, userId, query);
  const where: SQL[] = [];
  if (pipeline) {
    where.push(sql`t.pipeline_id = ${query.pipeline}`);
    if (query.workspace !== undefined && query.workspace !== pipeline.workspaceId) where.push(sql`false`);
  } else {
    where.push(inPipelinesWhere(workspacesOf(userId)));
    if (query.workspace !== undefined) where.push(inPipelinesWhere(sql`pr.workspace_id = ${query.workspace}`));
  }
  const person = (value: 'me' | number | undefined) => (value === 'me' ? userId : value);
  const assignee = person(query.assignee);
  // Awaiting someone's review names that someone: the reviewer filter, else the caller.
  const reviewer = person(query.reviewer ?? (query.awaiting ? 'me' : undefined));
  if (assignee !== undefined) where.push(sql`t.id in ${tasksOfPerson('assignees', assignee)}`);
  if (reviewer !== undefined) where.push(sql`t.id in ${tasksOfPerson('reviewers', reviewer)}`);
  if (assignee !== undefined && assignee !== userId) where.push(memberOfTask(assignee));
  if (reviewer !== undefined && reviewer !== userId) where.push(memberOfTask(reviewer));
  if (query.unit !== undefined) where.push(sql`t.unit_id = ${query.unit}`);
  if (query.status !== undefined) where.push(sql`t.status = ${query.status}`);
  if (query.ready !== undefined) where.push(query.ready === 'true' ? readySql : sql`not ${readySql}`);
  if (query.awaiting && reviewer !== undefined) where.push(awaitingReaction(reviewer));
  if (query.workable) where.push(sql`t.status in ('todo', 'in_progress', 'edit')`);
  // Teams and review rules: the caller's team queues, until someone takes the task (or it is done).
  if (query.queue === 'team') where.push(sql`t.id in ${tasksOfTeamsOf(userId)} and t.status <> 'done'`);
  if (query.overdue !== undefined) where.push(query.overdue === 'true' ? overdueAt(now) : sql`not ${overdueAt(now)}`);
  return { where: sql.join(where, sql` and `), pipeline };

  /** Someone else's tasks count only while they are a member of the task's workspace. */
  function memberOfTask(personId: number): SQL {
    return pipeline
      ? sql`exists (select 1 from memberships m where m.user_id = ${personId} and m.workspace_id = ${pipeline.workspaceId})`
      : inPipelinesWhere(workspacesOf(personId));
  }
}
