import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type {
  TCalendarFeedState,
  TMilestone,
  TProjectForecast,
  TWorkCalendar,
  TWorkload,
} from '@stageline/shared/schedule';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildFlow, buildUnit, ok, taskAt, type Flow } from '../../../test/units';
import { as, buildTeam, type Team } from '../../../test/workspaces';

/** The schedule through HTTP (docs/schedule.md): dates, calendar, milestones, forecast, iCalendar feed. */

let t: TestApp;
let team: Team;
let flow: Flow;
/** Rigging (0) and Layout (1) lead into Animation (2). */
let unit: { id: number; rigging: number; layout: number; animation: number };

const today = new Date().toISOString().slice(0, 10);
const after = (days: number) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
const fields = (response: { json: <T>() => T }) => response.json<Record<string, string[]>>();

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
  team = await buildTeam(t);
  flow = await buildFlow(t, {
    workspace: team.workspace,
    stages: [{ name: 'Rigging', assignees: [team.guest] }, { name: 'Layout' }, { name: 'Animation' }],
    edges: [
      ['root', 0],
      ['root', 1],
      [0, 2],
      [1, 2],
      [2, 'end'],
    ],
  });
  const made = await buildUnit(t, team.member, flow, 'SH010');
  unit = {
    id: made.id,
    rigging: taskAt(made, flow, 0),
    layout: taskAt(made, flow, 1),
    animation: taskAt(made, flow, 2),
  };
});
afterAll(async () => {
  await t?.close();
});

describe('dates', () => {
  test('a task’s planned start sits beside its due date; never after it (a translated 400)', async () => {
    const member = as(t, team.member);
    const set = ok(await member('PATCH', `/api/tasks/${unit.layout}/`, { start_date: after(2) }));
    expect(set).toMatchObject({ start_date: after(2), use_stage_defaults: true });
    ok(await member('PATCH', `/api/tasks/${unit.layout}/`, { due_date: `${after(5)}T00:00:00.000Z` }));

    const late = await member('PATCH', `/api/tasks/${unit.layout}/`, { start_date: after(6) });
    expect(late.statusCode).toBe(400);
    expect(fields(late).start_date).toEqual(['The start cannot be after the due date.']);
    const early = await member('PATCH', `/api/tasks/${unit.layout}/`, { due_date: `${after(1)}T00:00:00.000Z` });
    expect(fields(early).due_date).toEqual(['The start cannot be after the due date.']);
    const russian = await t.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${unit.layout}/`,
      payload: { start_date: after(6) },
      headers: { ...team.member.headers, 'accept-language': 'ru' },
    });
    expect(fields(russian).start_date![0]).toMatch(/[а-я]/);
    for (const bad of ['2026-02-30', 'tomorrow', 5]) {
      const refused = await member('PATCH', `/api/tasks/${unit.layout}/`, { start_date: bad });
      expect(refused.statusCode, String(bad)).toBe(400);
      expect(fields(refused).start_date).toBeDefined();
    }
    expect((await as(t, team.guest)('PATCH', `/api/tasks/${unit.layout}/`, { start_date: today })).statusCode).toBe(
      403,
    );
    // Cleared again for the forecast below.
    ok(await member('PATCH', `/api/tasks/${unit.layout}/`, { start_date: null, use_stage_defaults: true }));
    expect(ok(await member('GET', `/api/tasks/${unit.layout}/`))).toMatchObject({ start_date: null, due_date: null });
  });

  test('a stage lasts N working days by default; a negative duration is a 400 naming it', async () => {
    const member = as(t, team.member);
    const patched = await member('PATCH', `/api/stages/${flow.stages[0]}/`, { default_duration_days: 3 });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json<{ default_duration_days: number }>().default_duration_days).toBe(3);
    for (const bad of [-1, 1.5, 5000]) {
      const refused = await member('PATCH', `/api/stages/${flow.stages[0]}/`, { default_duration_days: bad });
      expect(refused.statusCode, String(bad)).toBe(400);
      expect(fields(refused).default_duration_days).toBeDefined();
    }
    ok(await member('PATCH', `/api/stages/${flow.stages[2]}/`, { default_duration_days: 2 }));
  });
});

describe('the workspace calendar', () => {
  const url = () => `/api/workspaces/${team.workspace.id}/calendar/`;

  test('weekdays by default; Admins set working days and holidays, others may not', async () => {
    const read = await as(t, team.guest)('GET', url());
    expect(read.statusCode).toBe(200);
    expect(read.json<TWorkCalendar>()).toEqual({ working_days: [1, 2, 3, 4, 5], holidays: [], days_off: [] });
    expect((await as(t, team.outsider)('GET', url())).statusCode).toBe(404);
    expect((await as(t, team.member)('PUT', url(), { working_days: [1] })).statusCode).toBe(403);

    const body = { working_days: [1, 2, 3, 4, 5, 6, 5], holidays: [{ date: '2026-12-25', name: 'Christmas' }] };
    const set = await as(t, team.admin)('PUT', url(), body);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<TWorkCalendar>()).toMatchObject({
      working_days: [1, 2, 3, 4, 5, 6],
      holidays: [{ date: '2026-12-25', name: 'Christmas' }],
    });
    for (const bad of [{ working_days: [] }, { working_days: [0] }, { holidays: [{ date: '2026-13-01' }] }]) {
      const refused = await as(t, team.admin)('PUT', url(), bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  test('each person sets their own days off; Admins anyone’s', async () => {
    const own = `/api/workspaces/${team.workspace.id}/days-off/${team.guest.id}/`;
    const mine = await as(t, team.guest)('PUT', own, { dates: ['2026-12-28', '2026-12-28', '2026-12-29'] });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json<TWorkCalendar>().days_off).toEqual([
      { person: team.guest.id, date: '2026-12-28' },
      { person: team.guest.id, date: '2026-12-29' },
    ]);
    const others = `/api/workspaces/${team.workspace.id}/days-off/${team.member.id}/`;
    expect((await as(t, team.guest)('PUT', others, { dates: [] })).statusCode).toBe(403);
    expect((await as(t, team.admin)('PUT', others, { dates: ['2027-01-04'] })).statusCode).toBe(200);
    const stranger = `/api/workspaces/${team.workspace.id}/days-off/${team.outsider.id}/`;
    expect((await as(t, team.admin)('PUT', stranger, { dates: [] })).statusCode).toBe(404);
    expect((await as(t, team.admin)('PUT', others, { dates: ['someday'] })).statusCode).toBe(400);
    // Every day a working day from here on, so the forecast below counts plain days.
    const all = await as(t, team.admin)('PUT', url(), { working_days: [1, 2, 3, 4, 5, 6, 7], holidays: [] });
    expect(all.statusCode).toBe(200);
    ok(await as(t, team.admin)('PUT', own, { dates: [] }));
  });
});

describe('milestones', () => {
  const list = () => `/api/projects/${flow.project.id}/milestones/`;

  test('Members make, change and delete them; units must be the project’s', async () => {
    const made = await as(t, team.member)('POST', list(), { name: 'Delivery', date: after(4), units: [unit.id] });
    expect(made.statusCode, made.body).toBe(201);
    const milestone = made.json<TMilestone>();
    expect(milestone).toMatchObject({ name: 'Delivery', date: after(4), units: [unit.id], project: flow.project.id });

    expect((await as(t, team.guest)('POST', list(), { name: 'X', date: today })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('GET', list())).statusCode).toBe(404);
    const other = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    const stranger = await buildUnit(t, team.member, other);
    const outside = await as(t, team.member)('POST', list(), { name: 'X', date: today, units: [stranger.id] });
    expect(outside.statusCode).toBe(400);
    expect(fields(outside).units).toEqual(['Some of these units are not in this project.']);
    const badDate = await as(t, team.member)('POST', list(), { name: 'X', date: '2026-02-31' });
    expect(fields(badDate).date).toBeDefined();

    const extra = (await as(t, team.member)('POST', list(), { name: 'Extra', date: after(1) })).json<TMilestone>();
    const renamed = await as(t, team.member)('PATCH', `/api/milestones/${extra.id}/`, { name: 'Renamed' });
    expect(renamed.json<TMilestone>()).toMatchObject({ name: 'Renamed', units: [] });
    expect((await as(t, team.guest)('DELETE', `/api/milestones/${extra.id}/`)).statusCode).toBe(403);
    expect((await as(t, team.member)('DELETE', `/api/milestones/${extra.id}/`)).statusCode).toBe(204);
    expect((await as(t, team.guest)('GET', list())).json<{ results: TMilestone[] }>().results).toEqual([milestone]);
  });
});

describe('the forecast along the diagram', () => {
  const forecast = async () => {
    const response = await as(t, team.guest)('GET', `/api/projects/${flow.project.id}/forecast/`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TProjectForecast>();
  };

  test('each task starts after its inputs; moving one moves the unit, its lateness and the milestone’s risk', async () => {
    const [rigging, layout, animation] = flow.stages as [number, number, number];
    let result = await forecast();
    expect(result.today).toBe(today);
    expect(result.stages.map((s) => s.name)).toEqual(['Rigging', 'Layout', 'Animation']);
    let row = result.units[0]!;
    const at = (stage: number) => row.tasks.find((task) => task.stage === stage)!;
    // Rigging lasts its stage's 3 days, Layout one, Animation 2 after both.
    expect([at(rigging).forecast_start, at(rigging).forecast_finish]).toEqual([after(0), after(2)]);
    expect([at(layout).forecast_start, at(layout).forecast_finish]).toEqual([after(0), after(0)]);
    expect([at(animation).forecast_start, at(animation).forecast_finish]).toEqual([after(3), after(4)]);
    expect(at(animation).waits_for).toBe(rigging);
    expect(row).toMatchObject({ finish: after(4), critical_path: [rigging, animation], late_by: 0, waiting_on: null });
    expect(result.critical).toEqual({ unit: unit.id, stages: [rigging, animation] });
    expect(result.milestones[0]).toMatchObject({ name: 'Delivery', forecast: after(4), at_risk: false });
    expect(result.abilities).toEqual({ plan: false, manage_milestones: false }); // a Guest

    // Rigging planned a week later: Animation ends after its due date and the milestone is at risk.
    ok(await as(t, team.member)('PATCH', `/api/tasks/${unit.rigging}/`, { start_date: after(7) }));
    ok(await as(t, team.member)('PATCH', `/api/tasks/${unit.animation}/`, { due_date: `${after(6)}T00:00:00Z` }));
    result = await forecast();
    row = result.units[0]!;
    expect(at(rigging).forecast_finish).toBe(after(9));
    expect(at(animation)).toMatchObject({ forecast_finish: after(11), late_by: 5, due_date: after(6) });
    expect(row).toMatchObject({ late_by: 5, late_stage: animation, waiting_on: rigging });
    expect(result.milestones[0]).toMatchObject({ forecast: after(11), at_risk: true, late_units: [unit.id] });

    // An estimate gives Layout its duration: five days of 8 h, now longer than nothing else.
    ok(await as(t, team.member)('PATCH', `/api/tasks/${unit.layout}/`, { estimate_hours: 40 }));
    row = (await forecast()).units[0]!;
    expect(at(layout).forecast_finish).toBe(after(4));
    ok(await as(t, team.member)('PATCH', `/api/tasks/${unit.rigging}/`, { start_date: null }));
    expect((await as(t, team.outsider)('GET', `/api/projects/${flow.project.id}/forecast/`)).statusCode).toBe(404);
  });
});

describe('the iCalendar feed', () => {
  test('a secret URL a calendar client reads; a new one replaces it, revoking ends it with a bare 404', async () => {
    const member = as(t, team.guest);
    expect((await member('GET', '/api/me/calendar-feed/')).json<TCalendarFeedState>()).toEqual({
      active: false,
      created_at: null,
    });
    const made = await member('POST', '/api/me/calendar-feed/');
    expect(made.statusCode).toBe(201);
    const { url } = made.json<TCalendarFeedState>();
    const path = new URL(url!).pathname;
    expect(path).toMatch(/^\/api\/calendar\/[A-Za-z0-9_-]+\.ics$/);

    // The guest is Rigging's assignee (stage defaults): its due date is in the feed, with the milestone.
    ok(await as(t, team.member)('PATCH', `/api/tasks/${unit.rigging}/`, { due_date: `${after(9)}T00:00:00Z` }));
    const fetched = await t.app.inject({ method: 'GET', url: path });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.headers['content-type']).toMatch(/^text\/calendar/);
    const events = ICAL.Component.fromString(fetched.body)
      .getAllSubcomponents('vevent')
      .map((vevent) => new ICAL.Event(vevent));
    const summaries = events.map((event) => [event.summary, event.startDate.toString()]);
    expect(summaries).toContainEqual(['Due: SH010 · Rigging', after(9)]);
    expect(summaries).toContainEqual(['Milestone: Delivery', after(4)]);
    expect(events.every((event) => event.startDate.isDate)).toBe(true);

    const unknown = await t.app.inject({ method: 'GET', url: '/api/calendar/nothing-here-at-all-000000.ics' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    const renewed = (await member('POST', '/api/me/calendar-feed/')).json<TCalendarFeedState>();
    const old = await t.app.inject({ method: 'GET', url: path });
    expect([old.statusCode, old.body]).toEqual([404, unknown.body]);
    const current = new URL(renewed.url!).pathname;
    expect((await t.app.inject({ method: 'GET', url: current })).statusCode).toBe(200);
    expect((await member('DELETE', '/api/me/calendar-feed/')).statusCode).toBe(204);
    const revoked = await t.app.inject({ method: 'GET', url: current });
    expect([revoked.statusCode, revoked.body]).toEqual([404, unknown.body]);
  });
});

describe('workload', () => {
  test('people × weeks: estimated hours of open tasks against capacity, across projects', async () => {
    // Rigging (the guest's, by the stage's defaults) is 40 h over five days from Monday of next week.
    const monday = (() => {
      const d = new Date(`${today}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
      return d.toISOString().slice(0, 10);
    })();
    const friday = new Date(`${monday}T00:00:00Z`);
    friday.setUTCDate(friday.getUTCDate() + 4);
    await as(t, team.admin)('PUT', `/api/workspaces/${team.workspace.id}/calendar/`, { working_days: [1, 2, 3, 4, 5] });
    ok(
      await as(t, team.member)('PATCH', `/api/tasks/${unit.rigging}/`, {
        estimate_hours: 48,
        start_date: monday,
        due_date: friday.toISOString(),
      }),
    );
    const response = await as(t, team.guest)(
      'GET',
      `/api/workspaces/${team.workspace.id}/workload/?from=${monday}&weeks=2`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const workload = response.json<TWorkload>();
    expect(workload.weeks).toHaveLength(2);
    expect(workload.weeks[0]).toBe(monday);
    const guest = workload.people.find((p) => p.id === team.guest.id)!;
    expect(guest.weeks[0]).toEqual({ hours: 48, capacity: 40, tasks: [unit.rigging] }); // over capacity
    expect(guest.weeks[1]).toMatchObject({ hours: 0, capacity: 40 });
    expect(workload.people.find((p) => p.id === team.member.id)!.weeks[0]!.hours).toBe(0);
    for (const bad of ['weeks=0', 'weeks=27', 'from=2026-02-30']) {
      const refused = await as(t, team.guest)('GET', `/api/workspaces/${team.workspace.id}/workload/?${bad}`);
      expect(refused.statusCode, bad).toBe(400);
    }
    expect((await as(t, team.outsider)('GET', `/api/workspaces/${team.workspace.id}/workload/`)).statusCode).toBe(404);
  });
});
