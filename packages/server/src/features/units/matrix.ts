import { sql, type SQL } from 'drizzle-orm';
import type { TMatrixPage, ZMatrixQuery } from '@stageline/shared';
import type { z } from 'zod';
import type { Db } from '../../db';
import { loadCells, loadGraph, overdueAt, rowsOf, tasksOfPerson } from '../tasks';
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
 * page: the graph (3 small queries), the page of units with the total (1 query, the filters as
 * semi-joins on the indexed task columns), and the cells of that page (1 query).
 */
export async function matrixPage(db: Db, { userId, query }: { userId: number; query: Query }): Promise<TMatrixPage> {
  const { workspaceId } = await authorizePipelineUnits(db, { userId, pipelineId: query.pipeline });
  const now = new Date();
  const graph = await loadGraph(db, query.pipeline, workspaceId);
  const stagesOfPipeline = sql`(select id from stages where pipeline_id = ${query.pipeline})`;
  const taskFilter = (condition: SQL) =>
    sql`u.id in (select t.unit_id from tasks t join stages s on s.id = t.stage_id where t.stage_id in ${stagesOfPipeline} and ${condition})`;

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
