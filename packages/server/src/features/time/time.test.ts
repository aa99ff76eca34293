import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TPipeline, TWorkspace } from '@stageline/shared';
import type { TTimeLog, TTimeLogList, TTimerState } from '@stageline/shared/time';
import { countStatements, schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildFlow, buildUnit, ok, taskAt, type Flow } from '../../../test/units';
import { as, buildTeam, type Team } from '../../../test/workspaces';

/** Estimates, time logs, their list and export, and the timer (docs/time.md), through HTTP. */

let t: TestApp;
let team: Team;
let flow: Flow;
/** A task with the guest as its assignee (stage defaults), another with nobody. */
let assigned: number;
let unassigned: number;

const today = new Date().toISOString().slice(0, 10);
const dayAfter = (day: string, days: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
  team = await buildTeam(t);
  flow = await buildFlow(t, { workspace: team.workspace, stages: [{ assignees: [team.guest] }, { name: 'Comp' }] });
  const unit = await buildUnit(t, team.member, flow);
  assigned = taskAt(unit, flow, 0);
  unassigned = taskAt(unit, flow, 1);
  // The project started a month ago, so the days before today may be logged.
  await t.database.db
    .update(schema.projects)
    .set({ createdAt: new Date(Date.now() - 30 * 86_400_000) })
    .where(eq(schema.projects.id, flow.project.id));
});
afterAll(async () => {
  await t?.close();
});

const log = (user: Team['member'], taskId: number, body: object) =>
  as(t, user)('POST', `/api/tasks/${taskId}/time/`, body);
const logsIn = async (taskId: number) =>
  t.database.db.select().from(schema.timeLogs).where(eq(schema.timeLogs.taskId, taskId));

describe('estimates', () => {
  test('a stage default becomes the new tasks’ estimate; whoever may edit the task changes it', async () => {
    const stage = flow.stages[1]!;
    const patched = await as(t, team.member)('PATCH', `/api/stages/${stage}/`, { default_estimate_hours: 6.5 });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<{ default_estimate_hours: number }>().default_estimate_hours).toBe(6.5);
    const unit = await buildUnit(t, team.member, flow);
    const id = taskAt(unit, flow, 1);
    expect(ok(await as(t, team.member)('GET', `/api/tasks/${id}/`)).estimate_hours).toBe(6.5);
    expect(ok(await as(t, team.member)('GET', `/api/tasks/${taskAt(unit, flow, 0)}/`)).estimate_hours).toBeNull();

    const set = ok(await as(t, team.member)('PATCH', `/api/tasks/${id}/`, { estimate_hours: 12.25 }));
    expect(set.estimate_hours).toBe(12.25);
    expect(set.use_stage_defaults).toBe(true); // the estimate is no people change
    expect((await as(t, team.guest)('PATCH', `/api/tasks/${id}/`, { estimate_hours: 1 })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('PATCH', `/api/tasks/${id}/`, { estimate_hours: 1 })).statusCode).toBe(404);
    for (const bad of [0.3, -1, 0, 20_000, '3']) {
      const refused = await as(t, team.member)('PATCH', `/api/tasks/${id}/`, { estimate_hours: bad });
      expect(refused.statusCode, String(bad)).toBe(400);
      expect(refused.json<Record<string, string[]>>().estimate_hours).toBeDefined();
    }
    const quarter = await as(t, team.member)('PATCH', `/api/tasks/${id}/`, { estimate_hours: 0.3 });
    expect(quarter.json<Record<string, string[]>>().estimate_hours).toEqual(['Use steps of a quarter hour (0.25).']);
    const russian = await t.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${id}/`,
      payload: { estimate_hours: 0.3 },
      headers: { ...team.member.headers, 'accept-language': 'ru' },
    });
    expect(russian.json<Record<string, string[]>>().estimate_hours![0]).toMatch(/[а-я]/);
    expect(ok(await as(t, team.member)('PATCH', `/api/tasks/${id}/`, { estimate_hours: null })).estimate_hours).toBe(
      null,
    );
    const pipeline = (await as(t, team.member)('GET', `/api/pipelines/${flow.pipeline.id}/`)).json<TPipeline>();
    expect(pipeline.nodes.find((n) => n.id === stage)!.default_estimate_hours).toBe(6.5);
  });

  test('hours per day is a workspace setting of Admins, 8 by default', async () => {
    const url = `/api/workspaces/${team.workspace.id}/`;
    expect((await as(t, team.member)('GET', url)).json<TWorkspace>().hours_per_day).toBe(8);
    expect((await as(t, team.member)('PATCH', url, { hours_per_day: 6 })).statusCode).toBe(403);
    expect((await as(t, team.admin)('PATCH', url, { hours_per_day: 30 })).statusCode).toBe(400);
    expect((await as(t, team.admin)('PATCH', url, { hours_per_day: 7.5 })).json<TWorkspace>().hours_per_day).toBe(7.5);
    expect((await as(t, team.admin)('PATCH', url, { hours_per_day: 8 })).statusCode).toBe(200);
  });
});

describe('time logs', () => {
  test('a log of the same day adds to it; the task shows it in its history and its spent hours', async () => {
    const first = await log(team.guest, assigned, { date: today, hours: 1.5, note: 'Blocking' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<TTimeLog>()).toMatchObject({
      date: today,
      hours: 1.5,
      note: 'Blocking',
      person: { id: team.guest.id },
      task: { id: assigned, stage: 'Stage 1' },
      project: { id: flow.project.id },
    });
    const second = (await log(team.guest, assigned, { date: today, hours: 0.75 })).json<TTimeLog>();
    expect(second).toMatchObject({ id: first.json<TTimeLog>().id, hours: 2.25, note: 'Blocking' });
    expect(await logsIn(assigned)).toHaveLength(1);

    const task = ok(await as(t, team.member)('GET', `/api/tasks/${assigned}/`));
    expect(task.spent_hours).toBe(2.25);
    const entries = task.history.filter((h) => h.action === 'log_time');
    expect(entries.map((h) => h.time)).toEqual([
      { date: today, hours: 1.5 },
      { date: today, hours: 2.25 },
    ]);
    expect(entries[0]!.actor?.id).toBe(team.guest.id);
  });

  test('who may log: assignees and reviewers whatever their role, Members on any task; others 404', async () => {
    expect((await log(team.guest, unassigned, { date: today, hours: 1 })).statusCode).toBe(403);
    expect((await log(team.member, unassigned, { date: today, hours: 1 })).statusCode).toBe(201);
    expect((await log(team.admin, unassigned, { date: today, hours: 1 })).statusCode).toBe(201);
    expect((await log(team.outsider, unassigned, { date: today, hours: 1 })).statusCode).toBe(404);
    expect((await as(t, null)('POST', `/api/tasks/${unassigned}/time/`, { date: today, hours: 1 })).statusCode).toBe(
      401,
    );
    expect((await log(team.member, 2_000_000_000, { date: today, hours: 1 })).statusCode).toBe(404);
    // A reviewer (own people) who is a Guest may log too.
    ok(await as(t, team.admin)('PATCH', `/api/tasks/${unassigned}/`, { reviewers: [team.guest.id] }));
    expect((await log(team.guest, unassigned, { date: today, hours: 0.5 })).statusCode).toBe(201);
  });

  test('bad input is a translated 400 and stores nothing', async () => {
    const unit = await buildUnit(t, team.member, flow);
    const id = taskAt(unit, flow, 1);
    const cases: [object, string][] = [
      [{ date: today, hours: 0 }, 'hours'],
      [{ date: today, hours: -2 }, 'hours'],
      [{ date: today, hours: 1.234 }, 'hours'],
      [{ date: today, hours: 25 }, 'hours'],
      [{ date: today, hours: '2' }, 'hours'],
      [{ date: '2026-02-30', hours: 1 }, 'date'],
      [{ date: 'yesterday', hours: 1 }, 'date'],
      [{ date: '2001-01-01', hours: 1 }, 'date'],
      [{ date: dayAfter(today, 400), hours: 1 }, 'date'],
      [{ date: today, hours: 1, note: 'x'.repeat(501) }, 'note'],
    ];
    for (const [body, field] of cases) {
      const response = await log(team.member, id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(response.json<object>()), JSON.stringify(body)).toContain(field);
    }
    const wrongTwoDecimals = await t.app.inject({
      method: 'POST',
      url: `/api/tasks/${id}/time/`,
      payload: { date: today, hours: 1.234 },
      headers: { ...team.member.headers, 'accept-language': 'ru' },
    });
    expect(wrongTwoDecimals.json<Record<string, string[]>>().hours![0]).toMatch(/[а-я]/);
    expect(await logsIn(id)).toEqual([]);
  });

  test('no more than 24 hours a day per person, over all tasks', async () => {
    const unit = await buildUnit(t, team.member, flow);
    const [a, b] = [taskAt(unit, flow, 0), taskAt(unit, flow, 1)];
    const day = dayAfter(today, -1);
    expect((await log(team.member, a, { date: day, hours: 20 })).statusCode).toBe(201);
    const over = await log(team.member, b, { date: day, hours: 4.25 });
    expect(over.statusCode).toBe(400);
    expect(over.json<{ detail: string }>().detail).toBe(`That would make more than 24 hours on ${day} in total.`);
    expect(await logsIn(b)).toEqual([]);
    expect((await log(team.member, b, { date: day, hours: 4 })).statusCode).toBe(201);
    // Racing posts of the same day: exactly one of them fits.
    const other = dayAfter(today, -2);
    const raced = await Promise.all([
      log(team.member, a, { date: other, hours: 13 }),
      log(team.member, b, { date: other, hours: 13 }),
    ]);
    expect(raced.map((r) => r.statusCode).sort()).toEqual([201, 400]);
  });

  test('PATCH and DELETE: one’s own, Admins anyone’s; the day limit holds; the history records it', async () => {
    const unit = await buildUnit(t, team.member, flow);
    const id = taskAt(unit, flow, 1);
    const mine = (await log(team.member, id, { date: today, hours: 2 })).json<TTimeLog>();
    const url = `/api/time/${mine.id}/`;
    expect((await as(t, team.guest)('PATCH', url, { hours: 1 })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('PATCH', url, { hours: 1 })).statusCode).toBe(404);
    expect((await as(t, team.member)('PATCH', url, { hours: 0 })).statusCode).toBe(400);
    const changed = await as(t, team.member)('PATCH', url, { hours: 3.5, note: 'Rig fixes' });
    expect(changed.json<TTimeLog>()).toMatchObject({ hours: 3.5, note: 'Rig fixes' });
    expect((await as(t, team.admin)('PATCH', url, { hours: 4 })).json<TTimeLog>().hours).toBe(4);
    expect((await as(t, team.member)('PATCH', url, { hours: 24.5 })).statusCode).toBe(400);
    expect((await as(t, team.guest)('DELETE', url)).statusCode).toBe(403);
    expect((await as(t, team.member)('DELETE', url)).statusCode).toBe(204);
    expect((await as(t, team.member)('DELETE', url)).statusCode).toBe(404);
    const history = ok(await as(t, team.member)('GET', `/api/tasks/${id}/`)).history.filter(
      (h) => h.action === 'log_time',
    );
    expect(history.map((h) => h.time?.hours)).toEqual([2, 3.5, 4, 0]);
  });

  test('the list: one’s own logs, everyone’s for Admins; ranges are checked; CSV guards formulas', async () => {
    const unit = await buildUnit(t, team.member, flow, '=HYPERLINK("x")');
    const id = taskAt(unit, flow, 1);
    const day = dayAfter(today, -3);
    await log(team.member, id, { date: day, hours: 1, note: '=1+1' });
    await log(team.admin, id, { date: day, hours: 2 });
    const query = `from=${day}&to=${day}&workspace=${team.workspace.id}`;
    const forMember = (await as(t, team.member)('GET', `/api/time/?${query}`)).json<TTimeLogList>();
    expect(forMember.results.map((r) => r.person.id)).toEqual([team.member.id]);
    const forAdmin = (await as(t, team.admin)('GET', `/api/time/?${query}`)).json<TTimeLogList>();
    expect(forAdmin.results.map((r) => r.person.id).sort()).toEqual([team.admin.id, team.member.id].sort());
    const onlyMember = (
      await as(t, team.admin)('GET', `/api/time/?${query}&person=${team.member.id}&project=${flow.project.id}`)
    ).json<TTimeLogList>();
    expect(onlyMember.results).toHaveLength(1);
    expect((await as(t, team.outsider)('GET', `/api/time/?${query}`)).statusCode).toBe(404);
    expect(
      (await as(t, team.outsider)('GET', `/api/time/?from=${day}&to=${day}`)).json<TTimeLogList>().results,
    ).toEqual([]);
    expect((await as(t, team.member)('GET', `/api/time/?from=${today}&to=${day}`)).statusCode).toBe(400);
    expect((await as(t, team.member)('GET', `/api/time/?from=2026-01-01&to=2026-12-31`)).statusCode).toBe(400);
    expect((await as(t, team.member)('GET', `/api/time/?from=2026-01-01`)).statusCode).toBe(400);

    const csv = await as(t, team.admin)('GET', `/api/time/export.csv?${query}&delimiter=semicolon`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('date;person;project;unit;stage;task;hours;estimate;note');
    expect(lines).toHaveLength(3);
    expect(csv.body).toContain(`'=HYPERLINK`);
    expect(csv.body).toContain(`'=1+1`);
  });

  test('logging time takes five statements (docs/architecture.md, "Statements")', async () => {
    const unit = await buildUnit(t, team.member, flow);
    const id = taskAt(unit, flow, 1);
    const member = as(t, team.member);
    expect((await member('GET', '/api/users/me/')).statusCode).toBe(200);
    const first = await countStatements(() => member('POST', `/api/tasks/${id}/time/`, { date: today, hours: 1 }));
    expect(first.result.statusCode).toBe(201);
    const again = await countStatements(() => member('POST', `/api/tasks/${id}/time/`, { date: today, hours: 1 }));
    expect(again.result.statusCode).toBe(201);
    // BEGIN; the task's scope and the caller's role under the day's lock; the upsert with the day
    // check, the history row and the answer's names; the live event with the webhooks; COMMIT.
    expect([first.statements, again.statements]).toEqual([5, 5]);
  });
});

describe('live events and webhooks', () => {
  test('a log is a live event of the workspace and a webhook delivery of `time.logged`', async () => {
    const [hook] = await t.database.db
      .insert(schema.webhooks)
      .values({
        workspaceId: team.workspace.id,
        url: 'http://127.0.0.1:9/hook',
        events: ['time.logged', 'time.deleted'],
        secret: 'whsec_time',
      })
      .returning({ id: schema.webhooks.id });
    const unit = await buildUnit(t, team.member, flow);
    const id = taskAt(unit, flow, 1);
    const created = (await log(team.member, id, { date: today, hours: 2 })).json<TTimeLog>();
    expect((await as(t, team.member)('PATCH', `/api/time/${created.id}/`, { hours: 1 })).statusCode).toBe(200);
    expect((await as(t, team.member)('DELETE', `/api/time/${created.id}/`)).statusCode).toBe(204);
    const events = await t.database.db
      .select()
      .from(schema.events)
      .where(eq(schema.events.workspaceId, team.workspace.id));
    const time = events.filter((e) => e.type === 'time').map((e) => e.payload);
    expect(time.slice(-3)).toEqual([
      { task: id, person: team.member.id, date: today, hours: 2, action: 'logged' },
      { task: id, person: team.member.id, date: today, hours: 1, action: 'updated' },
      { task: id, person: team.member.id, date: today, hours: 0, action: 'deleted' },
    ]);
    const deliveries = await t.database.db
      .select()
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.webhookId, hook!.id));
    expect(deliveries.map((d) => d.event)).toEqual(['time.logged', 'time.deleted']);
    expect(deliveries[0]!.data).toMatchObject({ log: { id: created.id, hours: 2, task: { id } } });
  });
});

describe('the timer', () => {
  test('one timer per person; stopping it logs the time rounded up to a quarter hour', async () => {
    const unit = await buildUnit(t, team.member, flow);
    const id = taskAt(unit, flow, 1);
    const member = as(t, team.member);
    expect((await member('GET', '/api/timer/')).json<TTimerState>().timer).toBeNull();
    expect((await member('POST', '/api/timer/stop/')).statusCode).toBe(409);
    const started = await member('POST', `/api/tasks/${id}/timer/start/`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json<TTimerState>().timer?.task.id).toBe(id);
    expect((await member('POST', `/api/tasks/${assigned}/timer/start/`)).statusCode).toBe(409);
    expect((await as(t, team.guest)('POST', `/api/tasks/${id}/timer/start/`)).statusCode).toBe(403);
    // Started 61 minutes ago: 1.25 h.
    await t.database.db
      .update(schema.timers)
      .set({ startedAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(schema.timers.userId, team.member.id));
    const stopped = await member('POST', '/api/timer/stop/', { date: today });
    expect(stopped.statusCode, stopped.body).toBe(201);
    expect(stopped.json<{ log: TTimeLog }>().log).toMatchObject({ hours: 1.25, date: today, task: { id } });
    expect((await member('GET', '/api/timer/')).json<TTimerState>().timer).toBeNull();
    expect((await member('POST', `/api/tasks/${id}/timer/start/`)).statusCode).toBe(200);
    expect((await member('DELETE', '/api/timer/')).statusCode).toBe(204);
    expect((await member('DELETE', '/api/timer/')).statusCode).toBe(409);
  });
});
