import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TPipeline, TReviewMode, TTask } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { act, buildFlow, buildUnit, ok, setStatus, taskAt } from '../../../test/units';
import { as, buildTeam } from '../../../test/workspaces';

/**
 * Two reviewers reacting at the same instant (issue 6). PGlite is one connection: requests cannot
 * overlap there, so this runs only on a PostgreSQL server (TEST_DATABASE_URL), as CI does.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
if (!onPostgres) {
  // eslint-disable-next-line no-console -- the skip must say why
  console.info(
    'concurrency.test.ts skipped: set TEST_DATABASE_URL to run it on PostgreSQL (PGlite has one connection).',
  );
}

let t: TestApp;
beforeAll(async () => {
  if (onPostgres) t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

const rounds = 5;

async function scene(mode: TReviewMode) {
  const team = await buildTeam(t);
  const flow = await buildFlow(t, {
    workspace: team.workspace,
    stages: [{ reviewMode: mode, reviewers: [team.guest, team.admin] }],
  });
  const unit = await buildUnit(t, team.member, flow);
  const id = taskAt(unit, flow, 0);
  await setStatus(t, [id], 'in_progress');
  ok(await act(t, team.member, id, 'submit'));
  return { team, id };
}

/** The reactions in the order the locks let them in (history ids grow with commit order under the lock). */
async function reactionOrder(taskId: number) {
  const rows = await t.database.db
    .select({ action: schema.taskHistory.action, actor: schema.taskHistory.actorId })
    .from(schema.taskHistory)
    .where(and(eq(schema.taskHistory.taskId, taskId)))
    .orderBy(asc(schema.taskHistory.id));
  return rows.filter((r) => r.action === 'accept' || r.action === 'reject').map((r) => r.action);
}

describe.skipIf(!onPostgres)('two reviewers at the same instant (PostgreSQL)', () => {
  test.each(['each_immediate', 'each_wait', 'any'] as const)(
    '%s: a reject and an accept fired together end as if applied in the order the locks took them',
    async (mode) => {
      for (let round = 0; round < rounds; round++) {
        const s = await scene(mode);
        const [rejected, accepted] = await Promise.all([
          act(t, s.team.guest, s.id, 'reject'),
          act(t, s.team.admin, s.id, 'accept'),
        ]);
        const codes = [rejected.statusCode, accepted.statusCode];
        const task = ok(await as(t, s.team.member)('GET', `/api/tasks/${s.id}/`));
        const order = await reactionOrder(s.id);
        const iteration = task.iteration!;
        const reactions = iteration.accepted_by.length + iteration.rejected_by.length;
        expect(order).toHaveLength(reactions); // every recorded reaction has its history row, none lost
        switch (mode) {
          case 'each_immediate':
            // Reject first: the round closes at once, the accept comes too late (409). Accept first: both count.
            expect(task.status).toBe('edit');
            expect(codes).toEqual(order[0] === 'reject' ? [200, 409] : [200, 200]);
            break;
          case 'each_wait':
            expect(codes).toEqual([200, 200]);
            expect(task.status).toBe('edit');
            expect(iteration).toMatchObject({ accepted_by: [s.team.admin.id], rejected_by: [s.team.guest.id] });
            break;
          case 'any':
            expect(order).toHaveLength(1);
            expect(task.status).toBe(order[0] === 'accept' ? 'done' : 'edit');
            expect(codes).toEqual(order[0] === 'accept' ? [409, 200] : [200, 409]);
            break;
        }
        expect(iteration.closed).toBe(true);
      }
    },
  );

  test('two accepts together in each_immediate: both count, the task is done', async () => {
    for (let round = 0; round < rounds; round++) {
      const s = await scene('each_immediate');
      const responses = await Promise.all([act(t, s.team.guest, s.id, 'accept'), act(t, s.team.admin, s.id, 'accept')]);
      expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
      const task: TTask = ok(await as(t, s.team.member)('GET', `/api/tasks/${s.id}/`));
      expect(task.status).toBe('done');
      expect([...task.iteration!.accepted_by].sort()).toEqual([s.team.guest.id, s.team.admin.id].sort());
    }
  });

  test('one reviewer reacting twice at once: one counts, the other is 409', async () => {
    for (let round = 0; round < rounds; round++) {
      const s = await scene('each_wait');
      const responses = await Promise.all([act(t, s.team.guest, s.id, 'accept'), act(t, s.team.guest, s.id, 'reject')]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(responses.find((r) => r.statusCode === 409)!.json()).toMatchObject({ rule: 'already_reacted' });
      const rows = await t.database.db.select().from(schema.taskReactions).where(eq(schema.taskReactions.taskId, s.id));
      expect(rows).toHaveLength(1);
      const task = ok(await as(t, s.team.member)('GET', `/api/tasks/${s.id}/`));
      expect(task.status).toBe('review');
    }
  });

  test('graph saves racing task actions: never a 500 or a deadlock left open, and every unit keeps one task per stage', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{}, {}],
      edges: [
        ['root', 0],
        [0, 1],
        [1, 'end'],
      ],
    });
    const units = [];
    for (let i = 0; i < 6; i++) units.push(await buildUnit(t, team.member, flow));
    const first = units.map((u) => taskAt(u, flow, 0));
    const call = as(t, team.member);
    for (let round = 0; round < rounds; round++) {
      await setStatus(t, first, 'todo');
      const pipeline = (await call('GET', `/api/pipelines/${flow.pipeline.id}/`)).json<TPipeline>();
      const root = pipeline.nodes.find((n) => n.kind === 'root')!.id;
      const end = pipeline.nodes.find((n) => n.kind === 'end')!.id;
      // A parallel branch Start → new → End: its save creates a task for every unit while they move.
      const save = call('PUT', `/api/pipelines/${flow.pipeline.id}/graph/`, {
        version: pipeline.version,
        nodes: [
          ...pipeline.nodes.map(({ id, kind, name, x, y }) => ({ id, kind, name, x, y })),
          { tmp_id: `branch${round}`, kind: 'stage', name: `Branch ${round}`, x: 300, y: 100 * round },
        ],
        edges: [
          ...pipeline.edges,
          { source: root, target: `branch${round}` },
          { source: `branch${round}`, target: end },
        ],
      });
      const responses = await Promise.all([save, ...first.map((id) => act(t, team.member, id, 'start'))]);
      for (const response of responses) expect([200, 409], response.body).toContain(response.statusCode);
    }
    const stageRows = await t.database.db
      .select({ id: schema.stages.id })
      .from(schema.stages)
      .where(and(eq(schema.stages.pipelineId, flow.pipeline.id), eq(schema.stages.kind, 'stage')));
    const stageIds = stageRows.map((r) => r.id).sort();
    expect(stageIds.length).toBeGreaterThan(2);
    for (const unit of units) {
      const rows = await t.database.db
        .select({ stage: schema.tasks.stageId })
        .from(schema.tasks)
        .where(eq(schema.tasks.unitId, unit.id));
      expect(rows.map((r) => r.stage).sort()).toEqual(stageIds);
    }
  });
});
