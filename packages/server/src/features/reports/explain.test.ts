import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { rowsOf } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { act, buildFlow, buildUnit, ok, taskAt } from '../../../test/units';
import { buildTeam } from '../../../test/workspaces';
import {
  blockingSql,
  burnupDoneSql,
  burnupScopeSql,
  estimatesSql,
  firstPassSql,
  overrunsSql,
  roundsSql,
  staysSql,
  throughputSql,
  type ReportScope,
} from './sql';

/**
 * Report SQL uses indexes (issue 33): no plan of a report statement reads `task_history` (or any
 * other table) by a sequential scan. A test database holds a few rows, where a sequential scan is
 * the planner's honest best, so each statement is planned with `enable_seqscan = off`: a sequential
 * scan then appears only where no index can serve the statement (docs/reports.md, "Indexes").
 * PGlite is PostgreSQL's own planner, so this runs on both databases.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

async function planOf(statement: SQL): Promise<PlanNode[]> {
  return t.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const [row] = await rowsOf<{ 'QUERY PLAN': unknown }>(tx, sql`explain (format json) ${statement}`);
    const raw = row!['QUERY PLAN'];
    const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
    return nodesOf(parsed[0].Plan);
  });
}

test('no report statement scans the history (or any table) sequentially', async () => {
  const team = await buildTeam(t);
  const flow = await buildFlow(t, {
    workspace: team.workspace,
    stages: [{ reviewers: [team.admin] }, { reviewers: [team.admin] }],
    edges: [
      ['root', 0],
      [0, 1],
      [1, 'end'],
    ],
  });
  const unit = await buildUnit(t, team.member, flow);
  const id = taskAt(unit, flow, 0);
  ok(await act(t, team.member, id, 'start'));
  ok(await act(t, team.member, id, 'submit'));
  ok(await act(t, team.admin, id, 'reject'));

  const now = new Date();
  const base: ReportScope = {
    projectId: flow.project.id,
    stageIds: flow.stages,
    person: null,
    start: new Date(now.getTime() - 30 * 86_400_000),
    end: new Date(now.getTime() + 86_400_000),
    now,
  };
  // The check can fail: a filter no index serves still plans as a sequential scan of the history.
  const unindexed = await planOf(sql`select count(*) from task_history where comment = 'x'`);
  expect(unindexed.map((node) => node['Node Type'])).toContain('Seq Scan');

  const statements = {
    burnupDoneSql,
    burnupScopeSql,
    throughputSql,
    firstPassSql,
    roundsSql,
    staysSql,
    blockingSql,
    estimatesSql,
    overrunsSql: (scope: ReportScope) => overrunsSql(scope, 10),
  };
  const timeLogReaders = ['estimatesSql', 'overrunsSql'];
  for (const scope of [base, { ...base, person: team.member.id }]) {
    for (const [name, build] of Object.entries(statements)) {
      const nodes = await planOf(build(scope));
      const scans = nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name']);
      expect(scans, `${name} (person ${scope.person})`).toEqual([]);
      const indexes = nodes.map((node) => node['Index Name']).filter(Boolean);
      if (timeLogReaders.includes(name)) {
        // Time logs are read by the project's days, or by task.
        expect(
          indexes.some((index) => /^time_logs_(project_date|task_id)_idx$/.test(index!)),
          name,
        ).toBe(true);
      } else if (name !== 'burnupScopeSql' && name !== 'blockingSql') {
        // The statements that read the history read it through its task index (an index or bitmap scan).
        expect(indexes, name).toContain('task_history_task_id_created_at_idx');
      }
    }
  }
});
