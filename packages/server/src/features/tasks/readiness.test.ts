import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  isReady,
  stagePredecessors,
  TaskStatuses,
  type TGraphNode,
  type TTaskList,
  type TTaskStatus,
} from '@stageline/shared';
import { eq } from 'drizzle-orm';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildFlow, buildUnit, setStatus } from '../../../test/units';
import { as, buildTeam } from '../../../test/workspaces';
import { refreshPipelineReadiness } from './index';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

/** A small deterministic generator (mulberry32), so a failing round can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Readiness has one SQL copy, `refreshReadiness`, whose stored `ready_at` every read answers with
 * (docs/rules.md §Tasks). Here it is checked against the engine's rule, `isReady` over the
 * predecessors' statuses, on a graph with joins, a branch and a stage fed by nothing, for many
 * random states, and read back through `GET tasks/` as a client reads it.
 */
describe('readiness: the stored ready_at agrees with the engine', () => {
  test('for random statuses on a graph with joins and branches', async () => {
    const team = await buildTeam(t);
    // 0 and 1 start; 2 joins them; 3 follows 2; 4 branches off 0; 5 follows 4; 6 is fed by nothing.
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{}, {}, {}, {}, {}, {}, {}],
      edges: [
        ['root', 0],
        ['root', 1],
        [0, 2],
        [1, 2],
        [2, 3],
        [0, 4],
        [4, 5],
        [3, 'end'],
        [5, 'end'],
      ],
    });
    for (let i = 0; i < 6; i++) await buildUnit(t, team.member, flow, `Shot ${i}`);
    const db = t.database.db;
    const stages = await db.select().from(schema.stages).where(eq(schema.stages.pipelineId, flow.pipeline.id));
    const edges = await db.select().from(schema.stageEdges).where(eq(schema.stageEdges.pipelineId, flow.pipeline.id));
    // The column is a varchar; its check constraint keeps it to the graph's kinds.
    const nodes = stages.map((s) => ({ id: s.id, kind: s.kind as TGraphNode<number>['kind'] }));
    const links = edges.map((e) => ({ source: e.sourceId, target: e.targetId }));
    const predecessors = new Map(flow.stages.map((id) => [id, stagePredecessors(nodes, links, id)]));
    const next = random(14);

    for (let round = 0; round < 12; round++) {
      const tasks = await db.select().from(schema.tasks).where(eq(schema.tasks.pipelineId, flow.pipeline.id));
      // Mostly done, so that chains of done stages (and tasks ready deep in the graph) come up.
      for (const task of tasks) {
        const status: TTaskStatus = next() < 0.5 ? 'done' : TaskStatuses[Math.floor(next() * TaskStatuses.length)]!;
        await setStatus(t, [task.id], status);
      }
      await refreshPipelineReadiness(db, flow.pipeline.id, new Date());

      const now = await db.select().from(schema.tasks).where(eq(schema.tasks.pipelineId, flow.pipeline.id));
      const statusOf = new Map(now.map((task) => [`${task.unitId}:${task.stageId}`, task.status]));
      const expected = new Map(
        now.map((task) => [
          task.id,
          isReady((predecessors.get(task.stageId) ?? []).map((p) => statusOf.get(`${task.unitId}:${p}`)!)),
        ]),
      );
      for (const task of now)
        expect(task.readyAt !== null, `round ${round}, task ${task.id}`).toBe(expected.get(task.id));

      const response = await as(t, team.member)('GET', `/api/tasks/?pipeline=${flow.pipeline.id}&limit=100`);
      expect(response.statusCode, response.body).toBe(200);
      const listed = response.json<TTaskList>().results;
      expect(listed).toHaveLength(now.length);
      for (const task of listed) expect(task.ready, `round ${round}, task ${task.id}`).toBe(expected.get(task.id));
    }
  });
});
