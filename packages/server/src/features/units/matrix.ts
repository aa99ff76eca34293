import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { TaskStatuses, WholeMatrixCellFields, type TMatrixPage, type ZMatrixQueryWithFields } from '@stageline/shared';
import { fieldFiltersOf } from '@stageline/shared/fields';
import type { z } from 'zod';
import type { Db } from '../../db';
import { isRowId, readCursor, writeCursor } from '../../http/cursor';
import { fieldConditions, fieldSort, loadProjectFields } from '../fields';
import { effectiveDue, loadCells, overdueAt, rowsOf, tasksOfPerson, tasksOfTeam } from '../tasks';
import { membershipOf } from '../workspaces';
import { authorizePipelineGraph } from './policy';
import { escapeLike } from './service';

type Query = z.infer<typeof ZMatrixQueryWithFields>;

/** A creation time as a cursor holds it: UTC to the microsecond, as the database keeps it. */
const utcMicros = sql.raw(`to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
const isUtcMicros = (key: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(key) &&
  new Date(Date.parse(key)).toISOString().slice(0, 19) === key.slice(0, 19);

/** A sort's key column, and its key as a cursor holds it, with the check a cursor's key must pass. */
const byName = { key: sql.raw('u.name'), cursor: sql.raw('u.name'), type: sql.raw('text'), valid: () => true };
const byCreated = { key: sql.raw('u.created_at'), cursor: utcMicros, type: sql.raw('timestamptz'), valid: isUtcMicros };

/** Each sort, and whether it runs backwards; the unit's id breaks ties the same way. */
const sorts = {
  name: { ...byName, desc: false },
  '-name': { ...byName, desc: true },
  created: { ...byCreated, desc: false },
  '-created': { ...byCreated, desc: true },
} satisfies Record<Exclude<Query['sort'], `${string}field.${string}`>, unknown>;

const isBuiltInSort = (sort: string): sort is keyof typeof sorts => Object.hasOwn(sorts, sort);

/**
 * GET units/matrix/ (the unit list as a matrix): one page of a pipeline's units, each with its
 * status cells. Filters keep units having at least one task that matches: in `status`, with an
 * effective assignee (`me` or an id), overdue; `search` on the name. Unfiltered, cost does not grow
 * with the pipeline: the access with the graph (1 query), the page of units (1 query, a range of an
 * index; the total is the pipeline's stored `units_count`), and the cells of that page (1 query). Filtered, the
 * page's query also counts its matches, the filters as semi-joins on the indexed task columns. `after`
 * starts the range at the cursor's key (docs/decisions.md 125), so a page deep in the pipeline costs
 * what the first does; a filtered page after a cursor counts its matches in a statement of its own.
 */
export async function matrixPage(db: Db, { userId, query }: { userId: number; query: Query }): Promise<TMatrixPage> {
  const { workspaceId, projectId, unitsCount, graph } = await authorizePipelineGraph(db, {
    userId,
    pipelineId: query.pipeline,
  });
  // Custom fields (docs/custom-fields.md): their definitions are read only when a filter or the sort
  // names one, so the plain matrix keeps its three statements; values come with the page's rows.
  const fieldFilters = fieldFiltersOf(query);
  const builtIn = isBuiltInSort(query.sort);
  const fields = Object.keys(fieldFilters).length > 0 || !builtIn ? await loadProjectFields(db, projectId) : [];
  const sort = isBuiltInSort(query.sort) ? sorts[query.sort] : fieldSort(fields, query.sort, sql`u.fields`);
  const after = readCursor(query.after, query.offset, ([key, id, ...rest]) =>
    typeof key === 'string' && sort.valid(key) && isRowId(id) && rest.length === 0 ? { key, id } : undefined,
  );
  const now = new Date();
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
  where.push(...fieldConditions(fields, fieldFilters, { column: sql`u.fields`, userId, escapeLike }));

  // Without a filter the count is the pipeline's, kept by the database, and the page is a range of
  // the pipeline's name or date index; a filter has its matches counted with the page (decision 120),
  // unless the page starts after a cursor (then separately). One more row tells whether a next page exists.
  const filtered = where.length > 1;
  const direction = sql.raw(sort.desc ? 'desc' : 'asc');
  const keyed = after
    ? [
        ...where,
        sql`(${sort.key}, u.id) ${sql.raw(sort.desc ? '<' : '>')} (${after.key}::${sort.type}, ${after.id}::int)`,
      ]
    : where;
  const rows = await rowsOf<{ id: number; name: string; fields: Record<string, never>; key: string; total: number }>(
    db,
    sql`select u.id, u.name, u.fields, ${sort.cursor} as key, ${filtered && !after ? sql`count(*) over ()::int` : sql`0`} as total
      from units u where ${sql.join(keyed, sql` and `)}
      order by ${sort.key} ${direction}, u.id ${direction}
      limit ${query.limit + 1} offset ${query.offset}`,
  );
  const more = rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const count = !filtered
    ? unitsCount
    : page[0] && !after
      ? Number(page[0].total)
      : query.offset === 0 && !after
        ? 0
        : Number(
            (
              await rowsOf<{ n: number }>(
                db,
                sql`select count(*)::int as n from units u where ${sql.join(where, sql` and `)}`,
              )
            )[0]?.n ?? 0,
          );
  const last = page.at(-1);
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  const cells = await loadCells(db, { graph, unitIds: page.map((u) => u.id), workspaceId, now });
  return {
    count,
    next_cursor: more && last ? writeCursor([last.key, last.id]) : null,
    stages: graph.flow.map((id) => ({ id, name: names.get(id) ?? '' })),
    rows: page.map((u) => ({ unit: { id: u.id, name: u.name, fields: u.fields }, tasks: cells.get(u.id) ?? [] })),
  };
}

/** The whole matrix as the API sends it: its JSON text, built by the database, and its ETag. */
export type WholeMatrixBody = { json: string; etag: string };

/** A cell's `status` field: its index in `TaskStatuses` (the answer's `statuses`). */
const statusIndex = sql.raw(
  `case t.status ${TaskStatuses.map((status, index) => `when '${status}' then ${index}`).join(' ')} end`,
);

/**
 * GET units/matrix/whole/?pipeline=… (`ZWholeMatrix`, docs/decisions.md "The whole matrix"): every
 * unit of the pipeline with every cell, in one statement that writes the JSON in the database (no row
 * objects in Node), positional and with field names once. The cells are the paged matrix's
 * (`loadCells`): readiness (`ready_at`, kept by every change of status or graph: docs/rules.md
 * §Tasks), the effective due date and overdue, and the effective assignees and teams, which the
 * client takes from the stage's defaults or the task's own (`wholeMatrixRows`). The ETag is the
 * body's hash, so an unchanged matrix is a 304 and costs no transfer.
 *
 * The cells are one pass over the pipeline's tasks (`tasks.pipeline_id`), written as text in no
 * order: at 10,000 units × 20 stages, grouping them by unit in flow order cost a sort of 200,000 rows
 * and `json_build_array` per cell about 450 ms of 600; this costs about 110. The text is safe to
 * write by hand: every value is a number (dates too, as milliseconds), or null.
 */
export async function wholeMatrix(
  db: Db,
  { userId, pipelineId, unitIds }: { userId: number; pipelineId: number; unitIds?: number[] },
): Promise<WholeMatrixBody> {
  const { workspaceId, graph } = await authorizePipelineGraph(db, { userId, pipelineId });
  const names = new Map(graph.nodes.map((n) => [n.id, n.name]));
  const flow = `{${graph.flow.join(',')}}`;
  const now = new Date();
  // Only some units (a live event's refetch): the same statement, its tasks and units narrowed.
  const only = unitIds ? `{${unitIds.join(',')}}` : null;
  const ofUnits = (column: SQL) => (only ? sql` and ${column} = any(${only}::int[])` : sql``);
  const ofPipeline = sql`t.pipeline_id = ${pipelineId}${ofUnits(sql`t.unit_id`)}`;
  // `WholeMatrixCellFields`, up to the last field not at its default. Overdue needs a due date, and
  // `own` writes every field before it.
  const head = sql`'[' || t.unit_id || ',' || t.stage_id || ',' || t.id || ',' || ${statusIndex}`;
  const due = sql`(extract(epoch from ${effectiveDue}) * 1000)::bigint`;
  const ready = sql`(t.ready_at is not null)::int`;
  const overdue = sql`coalesce(${overdueAt(now)}, false)::int`;
  const cell = sql`case
    when not t.use_stage_defaults then ${head} || ',' || ${ready} || ',' || ${overdue} || ',' || coalesce(${due}::text, 'null') || ',1]'
    when ${effectiveDue} is not null then ${head} || ',' || ${ready} || ',' || ${overdue} || ',' || ${due} || ']'
    when t.ready_at is not null then ${head} || ',1]'
    else ${head} || ']' end`;
  const [row] = await rowsOf<{
    units: string;
    cells: string | null;
    count: number;
    people: string;
    assignees: string | null;
    teams: string | null;
    files: string | null;
    fields: string | null;
    defaultTeams: Record<string, number[]> | null;
  }>(
    db,
    sql`select
      coalesce((select json_agg(json_build_array(u.id, u.name) order by u.name, u.id)
        from units u where u.pipeline_id = ${pipelineId}${ofUnits(sql`u.id`)})::text, '[]') as units,
      (select string_agg(${cell}, ',') from tasks t where ${ofPipeline}) as cells,
      (select count(*)::int from units u where u.pipeline_id = ${pipelineId}${ofUnits(sql`u.id`)}) as count,
      (select coalesce(json_agg(json_build_array(p.id, p.username, p.first_name, p.last_name) order by p.id)::text, '[]')
        from memberships m join users p on p.id = m.user_id where m.workspace_id = ${workspaceId}) as people,
      (select json_object_agg(x.task_id, x.ids)::text from (
        select a.task_id, json_agg(a.user_id order by a.user_id) as ids from task_assignees a
        join tasks t on t.id = a.task_id and not t.use_stage_defaults
        join memberships m on m.user_id = a.user_id and m.workspace_id = ${workspaceId}
        where ${ofPipeline} group by a.task_id) x) as assignees,
      (select json_object_agg(x.task_id, x.ids)::text from (
        select o.task_id, json_agg(o.team_id order by o.team_id) as ids from task_assignee_teams o
        join tasks t on t.id = o.task_id and not t.use_stage_defaults
        where ${ofPipeline} group by o.task_id) x) as teams,
      (select json_object_agg(x.task_id, x.n)::text from (
        select x.task_id, count(*)::int as n from (
          select f.task_id from attachments f join tasks t on t.id = f.task_id
          where f.completed_at is not null and ${ofPipeline}
          union all
          select cm.task_id from attachments f join comments cm on cm.id = f.comment_id join tasks t on t.id = cm.task_id
          where f.completed_at is not null and ${ofPipeline}) x
        group by x.task_id) x) as files,
      (select json_object_agg(u.id, u.fields)::text from units u
        where u.pipeline_id = ${pipelineId}${ofUnits(sql`u.id`)} and u.fields <> '{}'::jsonb) as fields,
      (select json_object_agg(d.stage_id, d.ids) from (
        select d.stage_id, json_agg(d.team_id order by d.team_id) as ids from stage_default_assignee_teams d
        where d.stage_id = any(${flow}::int[]) group by d.stage_id) d) as "defaultTeams"`,
  );
  const stages = graph.flow.map((id) => ({
    id,
    name: names.get(id) ?? '',
    assignees: graph.defaults.get(id)?.assignees ?? [],
    teams: row?.defaultTeams?.[String(id)] ?? [],
  }));
  const json =
    `{"pipeline":${pipelineId},"count":${Number(row?.count ?? 0)},"stages":${JSON.stringify(stages)},` +
    `"statuses":${JSON.stringify(TaskStatuses)},"cell":${JSON.stringify(WholeMatrixCellFields)},` +
    `"people":${row?.people ?? '[]'},"units":${row?.units ?? '[]'},"cells":[${row?.cells ?? ''}],` +
    `"assignees":${row?.assignees ?? '{}'},"teams":${row?.teams ?? '{}'},"files":${row?.files ?? '{}'},` +
    `"fields":${row?.fields ?? '{}'}}`;
  return { json, etag: `"${createHash('sha1').update(json).digest('base64url')}"` };
}
