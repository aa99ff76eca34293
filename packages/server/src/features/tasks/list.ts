import { eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { isOverdue, type TTaskList, type TTaskStatus, type ZTaskListQuery } from '@stageline/shared';
import type { z } from 'zod';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { actorIn, inWorkspacesOf } from '../workspaces';
import { effectiveDue, overdueAt, readySql, rowsOf, tasksOfPerson } from './sql';

type Query = z.infer<typeof ZTaskListQuery>;

type Row = {
  id: number;
  status: string;
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
async function checkParent(db: Db, userId: number, query: Query): Promise<void> {
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
  await checkParent(db, userId, query);
  const now = new Date();
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
  if (query.overdue !== undefined) where.push(query.overdue === 'true' ? overdueAt(now) : sql`not ${overdueAt(now)}`);

  const from = sql`
    from tasks t
    join stages s on s.id = t.stage_id
    join units u on u.id = t.unit_id
    join pipelines p on p.id = s.pipeline_id
    join projects pr on pr.id = p.project_id
    where ${sql.join(where, sql` and `)}`;
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
  return {
    count,
    next: end < count ? end : null,
    results: rows.map((row) => {
      const status = row.status as TTaskStatus;
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
    }),
  };

  /** Someone else's tasks count only while they are a member of the task's workspace. */
  function memberOfTask(personId: number): SQL {
    return sql`exists (select 1 from memberships m where m.user_id = ${personId} and m.workspace_id = pr.workspace_id)`;
  }
}
