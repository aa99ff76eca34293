import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type {
  TBlockingReport,
  TBurnupReport,
  TEstimatesReport,
  TFirstPassReport,
  TRoundsReport,
} from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildProject } from '../../../test/pipelines';
import { act, buildFlow, buildUnit, ok, taskAt } from '../../../test/units';
import { as, buildTeam } from '../../../test/workspaces';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

const DayMs = 24 * 60 * 60 * 1000;
const day = (offset: number) => new Date(Date.now() + offset * DayMs).toISOString().slice(0, 10);

/**
 * Two stages A → B reviewed by the admin; the member works. At A: unit 1 accepted in round 1,
 * unit 2 rejected then accepted in round 2, unit 3 rejected and still in edit. Unit 1's acceptance
 * is moved three days back, and every task was made ten days ago.
 */
async function history() {
  const team = await buildTeam(t);
  const flow = await buildFlow(t, {
    workspace: team.workspace,
    stages: [
      { name: 'Layout', reviewers: [team.admin] },
      { name: 'Animation', reviewers: [team.admin] },
    ],
    edges: [
      ['root', 0],
      [0, 1],
      [1, 'end'],
    ],
  });
  const units = [];
  for (const name of ['Shot 1', 'Shot 2', 'Shot 3']) units.push(await buildUnit(t, team.member, flow, name));
  const [a1, a2, a3] = units.map((unit) => taskAt(unit, flow, 0)) as [number, number, number];
  for (const id of [a1, a2, a3]) {
    ok(await act(t, team.member, id, 'start'));
    ok(await act(t, team.member, id, 'submit'));
  }
  expect(ok(await act(t, team.admin, a1, 'accept')).status).toBe('done');
  expect(ok(await act(t, team.admin, a2, 'reject')).status).toBe('edit');
  expect(ok(await act(t, team.member, a2, 'submit')).status).toBe('review');
  expect(ok(await act(t, team.admin, a2, 'accept')).status).toBe('done');
  expect(ok(await act(t, team.admin, a3, 'reject')).status).toBe('edit');

  const db = t.database.db;
  const ids = units.flatMap((unit) => unit.tasks.map((task) => task.id));
  await db
    .update(schema.tasks)
    .set({ createdAt: new Date(Date.now() - 10 * DayMs) })
    .where(inArray(schema.tasks.id, ids));
  await db
    .update(schema.taskHistory)
    .set({ createdAt: sql`${schema.taskHistory.createdAt} - interval '3 days'` })
    .where(and(eq(schema.taskHistory.taskId, a1), eq(schema.taskHistory.toStatus, 'done')));
  return { team, flow, units, a: [a1, a2, a3] as const };
}

const get = async <T>(user: { headers: { authorization: string } } | null, url: string) => {
  const response = await as(t, user)('GET', url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<T>();
};

describe('reports of a project built from its history', () => {
  test('burn-up, throughput, first-pass rate, rounds and blocking give the numbers of the history', async () => {
    const s = await history();
    const base = `/api/projects/${s.flow.project.id}/reports`;
    const range = `from=${day(-5)}&to=${day(0)}`;
    const [layout, animation] = s.flow.stages as [number, number];

    const burnup = await get<TBurnupReport>(s.team.guest, `${base}/burnup/?${range}`);
    expect(burnup.days).toHaveLength(6);
    expect(burnup.days[0]).toBe(day(-5));
    expect(burnup.stages.map((x) => x.stage)).toEqual([
      { id: layout, name: 'Layout' },
      { id: animation, name: 'Animation' },
    ]);
    // Unit 1 done three days ago, unit 2 today; nothing at Animation; three tasks in scope each day.
    expect(burnup.stages[0]!.done).toEqual([0, 0, 1, 1, 1, 2]);
    expect(burnup.stages[1]!.done).toEqual([0, 0, 0, 0, 0, 0]);
    expect(burnup.stages[0]!.scope).toEqual([3, 3, 3, 3, 3, 3]);
    expect(burnup.stages[0]!.throughput.reduce((a, b) => a + b, 0)).toBe(2);
    expect(burnup.stages[0]!.throughput).toHaveLength(burnup.weeks.length);
    // A range that starts after unit 1's acceptance still counts it as done from the first day.
    const later = await get<TBurnupReport>(s.team.guest, `${base}/burnup/?from=${day(-1)}&to=${day(0)}`);
    expect(later.stages[0]!.done).toEqual([1, 2]);
    expect(later.stages[0]!.throughput.reduce((a, b) => a + b, 0)).toBe(1);

    const firstPass = await get<TFirstPassReport>(s.team.guest, `${base}/first_pass/?${range}`);
    expect(firstPass.total).toEqual({ rounds: 3, accepted: 1, rate: 1 / 3 });
    expect(firstPass.stages[0]).toMatchObject({ rounds: 3, accepted: 1, rate: 1 / 3 });
    expect(firstPass.stages[1]).toMatchObject({ rounds: 0, accepted: 0, rate: null });
    expect(firstPass.people).toEqual([
      { person: { id: s.team.member.id, name: s.team.member.username }, rounds: 3, accepted: 1, rate: 1 / 3 },
    ]);

    const rounds = await get<TRoundsReport>(s.team.guest, `${base}/rounds/?${range}`);
    // Units 1 and 2 finished, after 1 and 2 rounds: mean 1.5, and 90 % needed at most 2.
    expect(rounds.total).toMatchObject({ tasks: 2, rounds_mean: 1.5, rounds_p90: 2 });
    expect(rounds.stages[0]).toMatchObject({ tasks: 2, rounds_mean: 1.5, rounds_p90: 2 });
    expect(rounds.stages[0]!.review_hours).toBeGreaterThanOrEqual(0);
    expect(rounds.stages[0]!.edit_hours).toBeGreaterThanOrEqual(0);
    expect(rounds.stages[1]).toMatchObject({ tasks: 0, rounds_mean: null, rounds_p90: null, review_hours: null });

    const blocking = await get<TBlockingReport>(s.team.guest, `${base}/blocking/`);
    expect(blocking.stages[0]).toMatchObject({ open: 1, overdue: 0, blocked: 0, blocked_by: [] });
    // Shot 3's Animation waits for its Layout, still in edit.
    expect(blocking.stages[1]).toMatchObject({
      open: 3,
      blocked: 1,
      blocked_by: [{ stage: { id: layout, name: 'Layout' }, count: 1 }],
    });
  });

  test('filters: person, stage, pipeline, range', async () => {
    const s = await history();
    const base = `/api/projects/${s.flow.project.id}/reports`;
    const [layout, animation] = s.flow.stages as [number, number];
    const byOwner = await get<TFirstPassReport>(s.team.member, `${base}/first_pass/?person=${s.team.owner.id}`);
    expect(byOwner.total).toEqual({ rounds: 0, accepted: 0, rate: null });
    const byMember = await get<TFirstPassReport>(s.team.member, `${base}/first_pass/?person=${s.team.member.id}`);
    expect(byMember.total.rounds).toBe(3);
    const ownerDone = await get<TBurnupReport>(s.team.member, `${base}/burnup/?person=${s.team.owner.id}`);
    expect(ownerDone.stages[0]!.done.at(-1)).toBe(0);

    const oneStage = await get<TBlockingReport>(s.team.member, `${base}/blocking/?stage=${animation}`);
    expect(oneStage.stages).toHaveLength(1);
    expect(oneStage.stages[0]!.blocked_by).toEqual([{ stage: { id: layout, name: 'Layout' }, count: 1 }]);
    const onePipeline = await get<TRoundsReport>(s.team.member, `${base}/rounds/?pipeline=${s.flow.pipeline.id}`);
    expect(onePipeline.total.tasks).toBe(2);
    // Before anything happened: no rounds closed, nothing done.
    const old = await get<TFirstPassReport>(s.team.member, `${base}/first_pass/?from=${day(-40)}&to=${day(-20)}`);
    expect(old.total.rounds).toBe(0);
  });

  test('refusals: outsiders and foreign filters get 404, bad ranges a translated 400', async () => {
    const s = await history();
    const base = `/api/projects/${s.flow.project.id}/reports`;
    expect((await as(t, null)('GET', `${base}/burnup/`)).statusCode).toBe(401);
    expect((await as(t, s.team.outsider)('GET', `${base}/burnup/`)).statusCode).toBe(404);
    const other = await buildProject(t, { workspace: s.team.workspace });
    const foreign = await as(t, s.team.owner)(
      'GET',
      `/api/projects/${other.id}/reports/burnup/?stage=${s.flow.stages[0]}`,
    );
    expect(foreign.statusCode).toBe(404);
    const pipeline = await as(t, s.team.owner)(
      'GET',
      `/api/projects/${other.id}/reports/rounds/?pipeline=${s.flow.pipeline.id}`,
    );
    expect(pipeline.statusCode).toBe(404);

    const backwards = await as(t, s.team.owner)('GET', `${base}/burnup/?from=${day(0)}&to=${day(-1)}`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({ from: ['The first day must not be after the last day.'] });
    const tooLong = await as(t, s.team.owner)('GET', `${base}/burnup/?from=2020-01-01&to=2024-01-01`);
    expect(tooLong.statusCode).toBe(400);
    const notADay = await t.app.inject({
      method: 'GET',
      url: `${base}/burnup/?from=2026-02-30`,
      headers: { ...s.team.owner.headers, 'accept-language': 'ru' },
    });
    expect(notADay.statusCode).toBe(400);
    expect(notADay.json()).toMatchObject({ from: ['Введите дату в виде ГГГГ-ММ-ДД.'] });
  });
});

describe('estimate vs spent', () => {
  test('per stage, per person (a share of each estimate by hours), overruns, range and person', async () => {
    const s = await history();
    const [a1, a2, a3] = s.a;
    const db = t.database.db;
    await db
      .update(schema.projects)
      .set({ createdAt: new Date(Date.now() - 40 * DayMs) })
      .where(eq(schema.projects.id, s.flow.project.id));
    for (const [id, hours] of [
      [a1, 4],
      [a2, 2],
    ] as const)
      ok(await as(t, s.team.member)('PATCH', `/api/tasks/${id}/`, { estimate_hours: hours }));
    const log = async (user: typeof s.team.member, task: number, date: string, hours: number) => {
      const response = await as(t, user)('POST', `/api/tasks/${task}/time/`, { date, hours });
      expect(response.statusCode, response.body).toBe(201);
    };
    await log(s.team.member, a1, day(0), 3);
    await log(s.team.admin, a1, day(-1), 3);
    await log(s.team.member, a2, day(-20), 1);
    await log(s.team.member, a2, day(0), 0.5);
    await log(s.team.member, a3, day(0), 2);

    const base = `/api/projects/${s.flow.project.id}/reports/estimates/`;
    const [layout, animation] = s.flow.stages as [number, number];
    const report = await get<TEstimatesReport>(s.team.guest, `${base}?from=${day(-5)}&to=${day(0)}`);
    const layoutRow = { tasks: 3, estimated_tasks: 2, estimate_hours: 6, spent_hours: 7.5, unestimated_hours: 2 };
    expect(report.total).toEqual({ ...layoutRow, ratio: 1.25 });
    expect(report.stages.map((x) => x.stage.id)).toEqual([layout, animation]);
    expect(report.stages[0]).toMatchObject(layoutRow);
    expect(report.stages[1]).toMatchObject({ tasks: 0, spent_hours: 0, ratio: null });
    // Unit 1's 4 h are shared 3 : 3, so 2 h each; unit 2's 2 h are the member's alone.
    expect(report.people).toEqual([
      {
        person: { id: s.team.member.id, name: s.team.member.username },
        tasks: 3,
        estimated_tasks: 2,
        estimate_hours: 4,
        spent_hours: 4.5,
        unestimated_hours: 2,
        ratio: 4.5 / 4,
      },
      {
        person: { id: s.team.admin.id, name: s.team.admin.username },
        tasks: 1,
        estimated_tasks: 1,
        estimate_hours: 2,
        spent_hours: 3,
        unestimated_hours: 0,
        ratio: 1.5,
      },
    ]);
    expect(report.overruns).toEqual([
      {
        task: { id: a1 },
        unit: { id: s.units[0]!.id, name: 'Shot 1' },
        stage: { id: layout, name: 'Layout' },
        pipeline: { id: s.flow.pipeline.id, name: expect.any(String) as string },
        estimate_hours: 4,
        spent_hours: 6,
        over_hours: 2,
      },
    ]);

    // Three weeks ago only unit 2 had a log; what it had spent by then counts, not what came later.
    const old = await get<TEstimatesReport>(s.team.guest, `${base}?from=${day(-25)}&to=${day(-15)}`);
    expect(old.total).toEqual({
      tasks: 1,
      estimated_tasks: 1,
      estimate_hours: 2,
      spent_hours: 1,
      unestimated_hours: 0,
      ratio: 0.5,
    });
    expect(old.overruns).toEqual([]);

    // One person: the tasks they logged in the range, their hours and their share of the estimates.
    const admin = await get<TEstimatesReport>(
      s.team.guest,
      `${base}?from=${day(-5)}&to=${day(0)}&person=${s.team.admin.id}`,
    );
    expect(admin.total).toMatchObject({ tasks: 1, estimate_hours: 2, spent_hours: 3 });
    expect(admin.people.map((p) => p.person.id)).toEqual([s.team.admin.id]);
    expect(admin.overruns.map((o) => o.task.id)).toEqual([a1]);
    expect((await as(t, s.team.outsider)('GET', base)).statusCode).toBe(404);
  });
});
