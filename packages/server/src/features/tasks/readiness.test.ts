import fc from 'fast-check';
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
    const tasks = await db.select().from(schema.tasks).where(eq(schema.tasks.pipelineId, flow.pipeline.id));
    // Each task done at least half the time, so that chains of done stages (and tasks ready deep in the graph) come up.
    const status = fc.oneof(fc.constant<TTaskStatus>('done'), fc.constantFrom(...TaskStatuses));
    const states = fc.array(status, { minLength: tasks.length, maxLength: tasks.length });

    await fc.assert(
      fc.asyncProperty(states, async (statuses) => {
        for (const value of TaskStatuses) {
          const ids = tasks.filter((_, i) => statuses[i] === value).map((task) => task.id);
          if (ids.length > 0) await setStatus(t, ids, value);
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
        for (const task of now) expect(task.readyAt !== null, `task ${task.id}`).toBe(expected.get(task.id));

        const response = await as(t, team.member)('GET', `/api/tasks/?pipeline=${flow.pipeline.id}&limit=100`);
        expect(response.statusCode, response.body).toBe(200);
        const listed = response.json<TTaskList>().results;
        expect(listed).toHaveLength(now.length);
        for (const task of listed) expect(task.ready, `task ${task.id}`).toBe(expected.get(task.id));
      }),
      { numRuns: 12, seed: 14 },
    );
  });
});
