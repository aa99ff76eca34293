import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TRecordChangePage } from '@stageline/shared';
import type { TAuditPage } from '@stageline/shared/audit';
import { rowsOf } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildFlow, buildUnit, ok } from '../../../test/units';
import { as, buildTeam, type Team } from '../../../test/workspaces';

/**
 * Pages of a unit's history and of the audit log stay index ranges at scale (issue 35, "Speed and
 * scale"; docs/history-and-audit.md): 10,000 history entries on one unit, and an audit log of
 * 100,000 entries in one workspace (1 M is the benchmark's; the plan is the same). Times are
 * logged; the bounds asserted are loose (a shared CI machine), the plans strict.
 */

let t: TestApp;
let team: Team;
let unitId: number;
let smallUnitId: number;

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };
const nodesOf = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];

async function planOf(statement: SQL): Promise<PlanNode[]> {
  const [row] = await rowsOf<{ 'QUERY PLAN': unknown }>(t.database.db, sql`explain (format json) ${statement}`);
  const raw = row!['QUERY PLAN'];
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
  return nodesOf(parsed[0].Plan);
}

/** The median of five timed calls (after one to warm up), in ms. */
async function medianMs(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[2]!;
}

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
  team = await buildTeam(t);
  const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
  const [unit, other] = [await buildUnit(t, team.member, flow), await buildUnit(t, team.member, flow)];
  unitId = unit.id;
  const small = await buildUnit(t, team.member, flow);
  smallUnitId = small.id;
  ok(await as(t, team.member)('PATCH', `/api/units/${small.id}/`, { name: 'Small' }));
  const task = unit.tasks[0]!.id;
  await t.database.db.execute(sql`
    insert into record_history (workspace_id, unit_id, task_id, actor_id, field, old_value, new_value, created_at)
    select ${team.workspace.id}::integer, u.id, case when i % 3 = 0 then ${task}::integer else null end, ${team.member.id}::integer,
      case when i % 5 = 0 then 'status' else 'name' end, to_jsonb('old ' || i), to_jsonb('new ' || i),
      now() - make_interval(secs => 20000 - i)
    from generate_series(1, 10000) i cross join (values (${unit.id}::integer), (${other.id}::integer)) as u(id)`);
  await t.database.db.execute(sql`
    insert into audit_log (workspace_id, actor_id, actor_username, action, ip, user_agent, details, created_at)
    select w.id, case when i % 7 = 0 then ${team.admin.id}::integer else ${team.member.id}::integer end, 'someone',
      case when i % 11 = 0 then 'export.csv' else 'auth.sign_in' end, '10.0.0.1', 'Bench/1.0', '{}',
      now() - make_interval(mins => 100000 - i)
    from generate_series(1, 100000) i cross join (values (${team.workspace.id}::integer)) as w(id)`);
  await t.database.db.execute(sql`analyze record_history`);
  await t.database.db.execute(sql`analyze audit_log`);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

test('a unit’s history page with 10,000 entries is an index range', async () => {
  for (const only of ['all', 'status', 'fields']) {
    const url = `/api/units/${unitId}/history/?only=${only}`;
    const ms = await medianMs(() => as(t, team.guest)('GET', url));
    const page = (await as(t, team.guest)('GET', url)).json<TRecordChangePage>();
    expect(page.results).toHaveLength(50);
    // eslint-disable-next-line no-console -- the timing is the point of this test
    console.info(`unit history page (${only}), 10,000 entries: ${ms.toFixed(1)} ms over HTTP on ${t.database.kind}`);
    expect(ms).toBeLessThan(250);
  }
  const page = (unit: number) =>
    planOf(
      sql`select id from record_history h where h.unit_id = ${unit} and h.field = 'status' order by h.id desc limit 51`,
    );
  // The big unit holds half the table: walking the newest ids is as good as its index. Any other
  // unit (here one with a handful of entries) is read by its index.
  expect((await page(unitId)).some((node) => node['Node Type'] === 'Seq Scan')).toBe(false);
  expect((await page(smallUnitId)).some((node) => node['Index Name'] === 'record_history_unit_idx')).toBe(true);
});

test('a filtered audit page with 100,000 entries is an index range', async () => {
  const base = `/api/workspaces/${team.workspace.id}/audit/`;
  for (const query of [
    '',
    `?actor=${team.admin.id}`,
    '?action=export.csv',
    `?action=export.csv&actor=${team.admin.id}`,
  ]) {
    const ms = await medianMs(() => as(t, team.admin)('GET', `${base}${query}`));
    const page = (await as(t, team.admin)('GET', `${base}${query}`)).json<TAuditPage>();
    expect(page.results).toHaveLength(50);
    // eslint-disable-next-line no-console -- the timing is the point of this test
    console.info(
      `audit page ${query || '(no filter)'}, 100,000 entries: ${ms.toFixed(1)} ms over HTTP on ${t.database.kind}`,
    );
    expect(ms).toBeLessThan(500);
  }
  for (const where of [
    sql`a.actor_id = ${team.admin.id}`,
    sql`a.action = 'export.csv'`,
    sql`a.created_at >= now() - interval '3 days'`,
  ]) {
    const plan = await planOf(
      sql`select a.id from audit_log a where a.workspace_id = ${team.workspace.id} and ${where} order by a.id desc limit 51`,
    );
    expect(plan.some((node) => node['Node Type'] === 'Seq Scan')).toBe(false);
  }
});
