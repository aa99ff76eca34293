import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TTask, TTaskList } from '@stageline/shared';
import { rowsOf, schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildFlow, buildUnit, ok, taskAt, type Flow } from '../../../test/units';
import { as, buildTeam, type Team } from '../../../test/workspaces';

/**
 * The stored task columns of decision 108 (the effective due date, the pipeline and its task count)
 * stay in step with what they summarise, and `GET tasks/` pages by key in the order it pages by offset.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

const day = 86_400_000;

/**
 * Every task of the pipeline: the stored `effective_due` equals the due date the task's detail
 * computes with the engine's own `effectiveAssignment` (in JS, from the raw columns).
 */
async function expectDueInStep(user: Team['member'], flow: Flow): Promise<(string | null)[]> {
  const rows = await t.database.db
    .select({ id: schema.tasks.id, stored: schema.tasks.effectiveDue })
    .from(schema.tasks)
    .where(eq(schema.tasks.pipelineId, flow.pipeline.id))
    .orderBy(schema.tasks.id);
  const stored = rows.map((row) => row.stored?.toISOString() ?? null);
  const computed: (string | null)[] = [];
  for (const row of rows) computed.push(ok(await as(t, user)('GET', `/api/tasks/${row.id}/`)).due_date);
  expect(stored).toEqual(computed);
  return stored;
}

/** The pipeline's stored task count against a count of its tasks. */
async function expectCountInStep(pipelineId: number): Promise<number> {
  const [row] = await rowsOf<{ stored: number; counted: number }>(
    t.database.db,
    sql`select p.tasks_count as stored, (select count(*)::int from tasks where pipeline_id = p.id) as counted
      from pipelines p where p.id = ${pipelineId}`,
  );
  expect(row!.stored).toBe(row!.counted);
  return row!.counted;
}

describe('the stored effective due date', () => {
  test('follows creation, readiness, the stage defaults and the task own values', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{ dueDate: '2031-05-04' }, { dueDays: 3 }, {}],
      edges: [
        ['root', 0],
        ['root', 1],
        [1, 2],
      ],
    });
    const before = Date.now();
    const unit = await buildUnit(t, team.member, flow);
    const [fixed, days, later] = [0, 1, 2].map((i) => taskAt(unit, flow, i)) as [number, number, number];
    const created = await expectDueInStep(team.member, flow);
    expect(created[0]).toBe('2031-05-04T00:00:00.000Z');
    // Ready at creation (fed by the start): three days from then.
    const due = Date.parse(created[1]!);
    expect(due).toBeGreaterThanOrEqual(before + 3 * day - 1000);
    expect(due).toBeLessThanOrEqual(Date.now() + 3 * day + 1000);
    expect(created[2]).toBeNull();

    // The stage's default changes: days to a date, a date to days, and days to none.
    const stage = (i: number, body: object) => as(t, team.admin)('PATCH', `/api/stages/${flow.stages[i]}/`, body);
    expect((await stage(0, { default_due_days: 1 })).statusCode).toBe(200);
    expect((await stage(1, { default_due_date: '2032-01-02' })).statusCode).toBe(200);
    expect((await stage(2, { default_due_days: 2 })).statusCode).toBe(200);
    const changed = await expectDueInStep(team.member, flow);
    expect(changed[1]).toBe('2032-01-02T00:00:00.000Z');
    expect(changed[2]).toBeNull(); // not ready yet: days count from readiness

    // Readiness: the predecessor done makes the later task ready, so its days start counting.
    ok(await as(t, team.member)('PATCH', `/api/tasks/${days}/`, { status: 'done' }));
    expect((await expectDueInStep(team.member, flow))[2]).not.toBeNull();

    // Own values, then back to the stage's.
    const own = '2030-03-03T10:00:00.000Z';
    ok(await as(t, team.member)('PATCH', `/api/tasks/${later}/`, { due_date: own }));
    ok(await as(t, team.member)('PATCH', `/api/tasks/${fixed}/`, { use_stage_defaults: false }));
    const owned = await expectDueInStep(team.member, flow);
    expect(owned[2]).toBe(own);
    ok(await as(t, team.member)('PATCH', `/api/tasks/${later}/`, { use_stage_defaults: true }));
    await expectDueInStep(team.member, flow);
  });

  test('a stage added by a graph save starts with its fixed date', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    await buildUnit(t, team.member, flow);
    await buildUnit(t, team.member, flow);
    const node = (id: number, kind: 'root' | 'end' | 'stage', name: string) => ({ id, kind, name, x: 0, y: 0 });
    const saved = await as(t, team.member)('PUT', `/api/pipelines/${flow.pipeline.id}/graph/`, {
      version: 0,
      nodes: [
        node(flow.pipeline.root, 'root', 'Start'),
        node(flow.stages[0]!, 'stage', 'Stage 1'),
        { tmp_id: 'new', kind: 'stage', name: 'Late', x: 0, y: 0, default_due_date: '2033-07-08' },
        node(flow.pipeline.end, 'end', 'End'),
      ],
      edges: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const stored = await expectDueInStep(team.member, flow);
    expect(stored.filter((due) => due === '2033-07-08T00:00:00.000Z')).toHaveLength(2);
    expect(await expectCountInStep(flow.pipeline.id)).toBe(4);
  });
});

describe("the pipeline's stored task count", () => {
  test('follows units created, a unit deleted, a stage removed and the pipeline deleted', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}, {}, {}] });
    const batch = await as(t, team.member)('POST', '/api/units/batch/', {
      project: flow.project.id,
      pipeline: flow.pipeline.id,
      template: 'Shot {count}',
      count: 4,
      start: 1,
      step: 1,
    });
    expect(batch.statusCode, batch.body).toBe(201);
    const unit = await buildUnit(t, team.member, flow);
    expect(await expectCountInStep(flow.pipeline.id)).toBe(15);
    expect((await as(t, team.admin)('DELETE', `/api/units/${unit.id}/`)).statusCode).toBe(204);
    expect(await expectCountInStep(flow.pipeline.id)).toBe(12);
    await t.database.db.delete(schema.stages).where(eq(schema.stages.id, flow.stages[2]!));
    expect(await expectCountInStep(flow.pipeline.id)).toBe(8);
    expect((await as(t, team.admin)('DELETE', `/api/pipelines/${flow.pipeline.id}/`)).statusCode).toBe(204);
    const left = await t.database.db.select().from(schema.tasks).where(eq(schema.tasks.pipelineId, flow.pipeline.id));
    expect(left).toEqual([]);
  });

  test("a task's pipeline must be its stage's", async () => {
    const team = await buildTeam(t);
    const [one, other] = [
      await buildFlow(t, { workspace: team.workspace, stages: [{}] }),
      await buildFlow(t, { workspace: team.workspace, stages: [{}] }),
    ];
    const unit = await buildUnit(t, team.member, one);
    await expect(
      t.database.db
        .update(schema.tasks)
        .set({ pipelineId: other.pipeline.id })
        .where(inArray(schema.tasks.id, [taskAt(unit, one, 0)])),
    ).rejects.toThrow();
  });
});

describe('GET tasks/ by key', () => {
  /** A pipeline of two stages and seven units; some tasks have their own due dates, the rest none. */
  async function scene() {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}, {}], edges: [['root', 0]] });
    const units = [];
    for (let i = 0; i < 7; i++) units.push(await buildUnit(t, team.member, flow, `Shot ${i}`));
    // Equal dates on purpose: the id breaks the tie.
    const dues = ['2030-01-03T00:00:00.000Z', '2030-01-01T00:00:00.000Z', '2030-01-03T00:00:00.000Z'];
    for (const [i, due] of dues.entries()) {
      ok(await as(t, team.member)('PATCH', `/api/tasks/${taskAt(units[i]!, flow, 1)}/`, { due_date: due }));
    }
    return { team, flow };
  }

  const list = async (user: Team['member'], query: string) => {
    const response = await as(t, user)('GET', `/api/tasks/?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<TTaskList>();
  };

  /** Every page of `query`, following `next_cursor`: the ids in order and the counts answered. */
  async function walk(user: Team['member'], query: string, limit: number) {
    const ids: number[] = [];
    const counts: number[] = [];
    let cursor: string | null = null;
    do {
      const page: TTaskList = await list(user, `${query}&limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
      ids.push(...page.results.map((task) => task.id));
      counts.push(page.count);
      // Past the first page, `next` (an offset) has no meaning: the cursor says where to go on.
      if (cursor) expect(page.next).toBeNull();
      cursor = page.next_cursor;
      if (cursor) expect(page.results).toHaveLength(limit);
    } while (cursor);
    return { ids, counts };
  }

  test('the pages follow the offset order (soonest due first, none last, then id) with the same count', async () => {
    const { team, flow } = await scene();
    const whole = await list(team.member, `pipeline=${flow.pipeline.id}&limit=100`);
    expect(whole.count).toBe(14);
    expect(whole.results.map((task) => task.due_date).slice(0, 4)).toEqual([
      '2030-01-01T00:00:00.000Z',
      '2030-01-03T00:00:00.000Z',
      '2030-01-03T00:00:00.000Z',
      null,
    ]);
    const ids = whole.results.map((task) => task.id);
    expect(ids.slice(1, 3)).toEqual([...ids.slice(1, 3)].sort((a, b) => a - b));
    expect(ids.slice(3)).toEqual([...ids.slice(3)].sort((a, b) => a - b));
    for (const limit of [1, 2, 3, 5]) {
      const first = await list(team.member, `pipeline=${flow.pipeline.id}&limit=${limit}`);
      expect(first.next).toBe(limit);
      const walked = await walk(team.member, `pipeline=${flow.pipeline.id}`, limit);
      expect(walked.ids, `limit ${limit}`).toEqual(ids);
      expect(new Set(walked.counts)).toEqual(new Set([14]));
    }
    // Narrowed by another filter: the count is of the matches, on every page.
    const ready = await walk(team.member, `pipeline=${flow.pipeline.id}&ready=true`, 3);
    expect(ready.ids).toEqual(whole.results.filter((task) => task.ready).map((task) => task.id));
    expect(new Set(ready.counts)).toEqual(new Set([ready.ids.length]));
  });

  test("a pipeline outside the caller's workspaces is a 404; its count is not given away", async () => {
    const { flow } = await scene();
    const stranger = await buildTeam(t);
    expect((await as(t, stranger.member)('GET', `/api/tasks/?pipeline=${flow.pipeline.id}`)).statusCode).toBe(404);
    const mixed = await as(t, stranger.member)(
      'GET',
      `/api/tasks/?pipeline=${flow.pipeline.id}&workspace=${stranger.workspace.id}`,
    );
    expect(mixed.statusCode).toBe(404);
  });

  test('a cursor that is not one, or a cursor with an offset, is a translated 400', async () => {
    const { team, flow } = await scene();
    const call = (query: string, language = 'en') =>
      t.app.inject({
        method: 'GET',
        url: `/api/tasks/?pipeline=${flow.pipeline.id}&${query}`,
        headers: { ...team.member.headers, 'accept-language': language },
      });
    const cursor = (key: unknown) => Buffer.from(JSON.stringify(key)).toString('base64url');
    for (const bad of ['%%%', 'bm90IGpzb24', cursor(['1 2', 5]), cursor([null, -1]), cursor(['2030-01-01', 5, 6])]) {
      const response = await call(`after=${bad}`);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json<Record<string, string[]>>().after).toEqual([
        'This page link is not valid: start again from the first page.',
      ]);
    }
    const both = await call(`after=${cursor([null, 1])}&offset=5`, 'ru');
    expect(both.statusCode).toBe(400);
    expect(both.json<Record<string, string[]>>().after).toEqual(['Укажите либо after, либо offset, но не оба.']);
  });

  test("My work pages by key too, over the caller's tasks only", async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{ assignees: [team.member], dueDays: 1 }, { assignees: [team.admin] }],
      edges: [['root', 0]],
    });
    for (let i = 0; i < 5; i++) await buildUnit(t, team.member, flow);
    const whole = await list(team.member, 'assignee=me&limit=100');
    expect(whole.count).toBe(5);
    const walked = await walk(team.member, 'assignee=me', 2);
    expect(walked.ids).toEqual(whole.results.map((task) => task.id));
    expect(new Set(walked.counts)).toEqual(new Set([5]));
    const tasks: TTask[] = [];
    for (const id of walked.ids) tasks.push(ok(await as(t, team.member)('GET', `/api/tasks/${id}/`)));
    expect(tasks.every((task) => task.assignees.some((a) => a.id === team.member.id))).toBe(true);
  });
});
