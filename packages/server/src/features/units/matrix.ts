import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { WholeMatrixCellFields, type TMatrixPage, type ZMatrixQuery } from '@stageline/shared';
import type { z } from 'zod';
import type { Db } from '../../db';
import { effectiveDue, loadCells, loadGraph, overdueAt, rowsOf, tasksOfPerson, tasksOfTeam } from '../tasks';
import { membershipOf } from '../workspaces';
import { authorizePipelineUnits } from './policy';
import { escapeLike } from './service';

type Query = z.infer<typeof ZMatrixQuery>;

const orders: Record<Query['sort'], SQL> = {
  name: sql.raw('u.name asc, u.id asc'),
  '-name': sql.raw('u.name desc, u.id desc'),
  created: sql.raw('u.created_at asc, u.id asc'),
  '-created': sql.raw('u.created_at desc, u.id desc'),
};

/**
 * GET units/matrix/ (the unit list as a matrix): one page of a pipeline's units, each with its
 * status cells. Filters keep units having at least one task that matches: in `status`, with an
 * effective assignee (`me` or an id), overdue; `search` on the name. Cost does not grow with the
 * page: the graph (1 query), the page of units with the total (1 query, the filters as
 * semi-joins on the indexed task columns), and the cells of that page (1 query).
 */
export async function matrixPage(db: Db, { userId, query }: { userId: number; query: Query }): Promise<TMatrixPage> {
  const { workspaceId } = await authorizePipelineUnits(db, { userId, pipelineId: query.pipeline });
  const now = new Date();
  const graph = await loadGraph(db, query.pipeline, workspaceId);
  const taskFilter = (condition: SQL) =>
    sql`u.id in (select t.unit_id from tasks t where t.pipeline_id = ${query.pipeline} and ${condition})`;

  const where: SQL[] = [sql`u.pipeline_id = ${query.pipeline}`];
  if (query.search) where.push(sql`u.name ilike ${`%${escapeLike(query.search)}%`}`);
  if (query.status) where.push(taskFilter(sql`t.status = ${query.status}`));
  if (query.overdue === 'true') where.push(taskFilter(overdueAt(now)));
  if (query.overdue === 'false') where.push(sql`not ${taskFilter(overdueAt(now))}`);
  if (query.assignee !== undefined) {
    const person = query.assignee === 'me' ? userId : query.assignee;
    // Someone who is not a member of the workspace is nobody's effective assignee here.
    const member = person === userId || (await membershipOf(db, { userId: person, workspaceId })) !== undefined;
    where.push(member ? taskFilter(sql`t.id in ${tasksOfPerson('assignees', person)}`) : sql`false`);
  }

  if (query.assignee_team !== undefined) {
    // A team of another workspace assigns nothing here.
    where.push(taskFilter(sql`t.id in ${tasksOfTeam(query.assignee_team)}`));
  }

  const page = await rowsOf<{ id: number; name: string; total: number }>(
    db,
    sql`select u.id, u.name, count(*) over ()::int as total from units u
      where ${sql.join(where, sql` and `)}
      order by ${orders[query.sort]}
      limit ${query.limit} offset ${query.offset}`,
  );
  const count = page[0]
    ? Number(page[0].total)
    : query.offset === 0
      ? 0
      : Number(
          (
            await rowsOf<{ n: number }>(
              db,
              sql`select count(*)::int as n from units u where ${sql.join(where, sql` and `)}`,
            )
          )[0]?.n ?? 0,
        );
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  const cells = await loadCells(db, { graph, unitIds: page.map((u) => u.id), workspaceId, now });
  return {
    count,
    stages: graph.flow.map((id) => ({ id, name: names.get(id) ?? '' })),
    rows: page.map((u) => ({ unit: { id: u.id, name: u.name }, tasks: cells.get(u.id) ?? [] })),
  };
}

/** The whole matrix as the API sends it: its JSON text, built by the database, and its ETag. */
export type WholeMatrixBody = { json: string; etag: string };

/**
 * GET units/matrix/whole/?pipeline=… (`ZWholeMatrix`, docs/architecture.md "Statements"): every unit
 * of the pipeline with every cell, in one statement that builds the JSON in the database (no row
 * objects in Node), positional and with field names once. The cells are the paged matrix's (`loadCells`)
 * computed in SQL: readiness, the effective due date and overdue, and the effective assignees (the
 * stage's defaults, members only, or the task's own). The ETag is the body's hash, so an unchanged
 * matrix is a 304 and costs no transfer.
 */
export async function wholeMatrix(
  db: Db,
  { userId, pipelineId, unitIds }: { userId: number; pipelineId: number; unitIds?: number[] },
): Promise<WholeMatrixBody> {
  const { workspaceId } = await authorizePipelineUnits(db, { userId, pipelineId });
  const graph = await loadGraph(db, pipelineId, workspaceId);
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  const stages = graph.flow.map((id) => ({ id, name: names.get(id) ?? '' }));
  // The stages' default assignees (members only), from the graph: one JSON object by stage id, only
  // the stages that have some. Read once into rows (`d`): a JSON operator per cell would parse it
  // 200,000 times.
  const defaults = Object.fromEntries(
    [...graph.defaults].filter(([, d]) => d.assignees.length > 0).map(([id, d]) => [String(id), d.assignees]),
  );
  const flow = `{${graph.flow.join(',')}}`;
  const now = new Date();
  // Only some units (a live event's refetch): the same statement, its tasks and units narrowed.
  const only = unitIds ? `{${unitIds.join(',')}}` : null;
  const ofUnits = (column: SQL) => (only ? sql` and ${column} = any(${only}::int[])` : sql``);
  // A cell's fields (`WholeMatrixCellFields`): id and status always, then up to the last one not at
  // its default (not ready, not overdue, no due date, no assignees, no files, no teams), each with the
  // condition under which it is not. JSON, not JSONB, so no spaces are added.
  const assignees = sql`case when c.use_stage_defaults then d.ids else own.ids end`;
  const fields: { value: SQL; set: SQL }[] = [
    { value: sql`c.ready`, set: sql`c.ready` },
    { value: sql`c.overdue`, set: sql`c.overdue` },
    { value: sql`to_char(c.due at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`, set: sql`c.due is not null` },
    // Both hold only non-empty lists.
    { value: sql`coalesce(${assignees}, '[]'::json)`, set: sql`${assignees} is not null` },
    { value: sql`coalesce(n.n, 0)`, set: sql`n.n > 0` },
    { value: sql`tm.ids`, set: sql`tm.ids is not null` },
  ];
  const upTo = (count: number) =>
    sql`json_build_array(${sql.join([sql`c.id, c.status`, ...fields.slice(0, count).map((f) => f.value)], sql`, `)})`;
  const cell = sql`case
    ${sql.join(
      fields.map((_, i) => fields.length - i).map((count) => sql`when ${fields[count - 1]!.set} then ${upTo(count)}`),
      sql` `,
    )}
    else ${upTo(0)} end`;
  // Set-based, so the plan is a few hash joins over the pipeline's tasks rather than a probe per
  // cell: the tasks with their effective due date, overdue and readiness (`ready_at`, kept by every
  // change of status or graph: docs/rules.md §Tasks), own assignees, file counts (the task's and its
  // comments', as the paged matrix counts them); then each unit's cells in flow order, gathered from
  // its tasks (`cu`). A unit with a task at every stage of the flow (all of them, but while a graph
  // save is under way) takes them as they are; any other gets a null where it has no task.
  const stagesInFlow = graph.flow.length;
  const [row] = await rowsOf<{ units: string; count: number; people: string }>(
    db,
    sql`with f as (select stage_id, ord from unnest(${flow}::int[]) with ordinality as f(stage_id, ord)),
      c as (
        select t.id, t.unit_id, t.stage_id, t.status, t.use_stage_defaults, t.ready_at is not null as ready,
          ${effectiveDue} as due, coalesce(${overdueAt(now)}, false) as overdue
        from tasks t where t.pipeline_id = ${pipelineId}${ofUnits(sql`t.unit_id`)}),
      own as (
        select a.task_id, json_agg(a.user_id order by a.user_id) as ids from task_assignees a
        join c on c.id = a.task_id and not c.use_stage_defaults
        join memberships m on m.user_id = a.user_id and m.workspace_id = ${workspaceId}
        group by a.task_id),
      d as (select key::int as stage_id, value as ids from json_each(${JSON.stringify(defaults)}::json)),
      teams as (
        select x.task_id, json_agg(x.team_id order by x.team_id) as ids from (
          select c.id as task_id, d.team_id from stage_default_assignee_teams d join c on c.stage_id = d.stage_id
          where c.use_stage_defaults
          union all
          select o.task_id, o.team_id from task_assignee_teams o join c on c.id = o.task_id where not c.use_stage_defaults) x
        group by x.task_id),
      files as (
        select x.task_id, count(*)::int as n from (
          select f.task_id from attachments f join c on c.id = f.task_id where f.completed_at is not null
          union all
          select cm.task_id from attachments f join comments cm on cm.id = f.comment_id join c on c.id = cm.task_id
          where f.completed_at is not null) x
        group by x.task_id),
      cu as (
        select c.unit_id, count(*)::int as n, array_agg(${cell} order by f.ord) as cells,
          array_agg(f.ord order by f.ord) as ords
        from c join f on f.stage_id = c.stage_id
        left join own on own.task_id = c.id
        left join d on d.stage_id = c.stage_id
        left join teams tm on tm.task_id = c.id
        left join files n on n.task_id = c.id
        group by c.unit_id),
      cells as (
        select u.id, u.name, case when cu.n = ${stagesInFlow} then array_to_json(cu.cells)
          else (select json_agg(cu.cells[array_position(cu.ords, f.ord)] order by f.ord) from f) end as cells
        from units u left join cu on cu.unit_id = u.id
        where u.pipeline_id = ${pipelineId}${ofUnits(sql`u.id`)})
      select coalesce((select json_agg(json_build_array(id, name, coalesce(cells, '[]'::json)) order by name, id) from cells)::text, '[]') as units,
        (select count(*)::int from units u where u.pipeline_id = ${pipelineId}${ofUnits(sql`u.id`)}) as count,
        (select coalesce(json_agg(json_build_array(p.id, p.username, p.first_name, p.last_name) order by p.id)::text, '[]')
          from memberships m join users p on p.id = m.user_id where m.workspace_id = ${workspaceId}) as people`,
  );
  const json =
    `{"pipeline":${pipelineId},"count":${Number(row?.count ?? 0)},"stages":${JSON.stringify(stages)},` +
    `"cell":${JSON.stringify(WholeMatrixCellFields)},"people":${row?.people ?? '[]'},"units":${row?.units ?? '[]'}}`;
  return { json, etag: `"${createHash('sha1').update(json).digest('base64url')}"` };
}
