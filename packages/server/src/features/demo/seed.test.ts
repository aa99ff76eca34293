import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TaskStatuses } from '@stageline/shared';
import { createTestDatabase } from '../../../test/helpers';
import { schema, type Database } from '../../db';
import { verifyPassword } from '../auth/passwords';
import { DemoStages, seedDemo, type DemoSeedResult } from './seed';

let database: Database;
let first: DemoSeedResult;

beforeAll(async () => {
  database = await createTestDatabase();
  // 16 units rather than the command's 48: the same variety of states, in a third of the time.
  first = await seedDemo(database.db, { units: 16 });
});
afterAll(async () => {
  await database?.close();
});

describe('npm run seed:demo', () => {
  test('creates a workspace with a team, a project, an 8-stage branching pipeline, its units and comments', async () => {
    const { db } = database;
    expect(first).toMatchObject({ username: 'demo', units: 16, tasks: 16 * DemoStages.length, comments: 24 });
    const members = await db
      .select()
      .from(schema.memberships)
      .where(eq(schema.memberships.workspaceId, first.workspaceId));
    expect(members).toHaveLength(4);
    const stages = await db.select().from(schema.stages).where(eq(schema.stages.pipelineId, first.pipelineId));
    expect(
      stages
        .filter((s) => s.kind === 'stage')
        .map((s) => s.name)
        .sort(),
    ).toEqual([...DemoStages].sort());
    const stageIds = stages.map((s) => s.id);
    const edges = await db.select().from(schema.stageEdges).where(inArray(schema.stageEdges.sourceId, stageIds));
    expect(edges).toHaveLength(10);

    const [demo] = await db.select().from(schema.users).where(eq(schema.users.username, 'demo'));
    expect(await verifyPassword(demo!.passwordHash, first.password!)).toBe(true);
    expect(demo!.recentWorkspaceId).toBe(first.workspaceId);
  });

  test('its nodes are laid out apart, as Organize would place them: no two boxes touch', async () => {
    const nodes = await database.db.select().from(schema.stages).where(eq(schema.stages.pipelineId, first.pipelineId));
    // The web draws a stage 200 × 72 and the start and end 112 × 40 (graph-model.ts's NodeSizes);
    // elk keeps 40 px between nodes of a column and 80 between columns.
    const box = (n: (typeof nodes)[number]) =>
      n.kind === 'stage' ? { ...n, width: 200, height: 72 } : { ...n, width: 112, height: 40 };
    const boxes = nodes.map(box);
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const gapX = Math.max(b.x - (a.x + a.width), a.x - (b.x + b.width));
        const gapY = Math.max(b.y - (a.y + a.height), a.y - (b.y + b.height));
        expect(Math.max(gapX, gapY), `${a.name} and ${b.name}`).toBeGreaterThanOrEqual(40);
      }
    }
  });

  test('task states are varied and each is one the engine allows: work starts only after its inputs are done', async () => {
    const { db } = database;
    const stages = await db.select().from(schema.stages).where(eq(schema.stages.pipelineId, first.pipelineId));
    const edges = await db
      .select()
      .from(schema.stageEdges)
      .where(
        inArray(
          schema.stageEdges.targetId,
          stages.map((s) => s.id),
        ),
      );
    const kinds = new Map(stages.map((s) => [s.id, s.kind]));
    const tasks = await db
      .select({ unitId: schema.tasks.unitId, stageId: schema.tasks.stageId, status: schema.tasks.status })
      .from(schema.tasks)
      .innerJoin(schema.units, eq(schema.units.id, schema.tasks.unitId))
      .where(eq(schema.units.pipelineId, first.pipelineId));
    const statusOf = new Map(tasks.map((t) => [`${t.unitId}:${t.stageId}`, t.status]));
    const seen = new Set(tasks.map((t) => t.status));
    expect([...seen].sort()).toEqual([...TaskStatuses].sort());
    for (const task of tasks) {
      expect(TaskStatuses).toContain(task.status);
      if (task.status === 'todo') continue;
      const inputs = edges.filter((e) => e.targetId === task.stageId && kinds.get(e.sourceId) === 'stage');
      for (const input of inputs) expect(statusOf.get(`${task.unitId}:${input.sourceId}`)).toBe('done');
    }
    const history = await db
      .select({ id: schema.taskHistory.id })
      .from(schema.taskHistory)
      .innerJoin(schema.tasks, eq(schema.tasks.id, schema.taskHistory.taskId))
      .where(
        inArray(
          schema.tasks.unitId,
          tasks.map((t) => t.unitId),
        ),
      );
    expect(history.length).toBeGreaterThan(100);
  });

  test('runs again: a fresh workspace each time, the same demo account with a new password', async () => {
    const second = await seedDemo(database.db, { units: 5 });
    expect(second.workspaceId).not.toBe(first.workspaceId);
    expect(second.units).toBe(5);
    expect(second.password).not.toBe(first.password);
    const demos = await database.db.select().from(schema.users).where(eq(schema.users.username, 'demo'));
    expect(demos).toHaveLength(1);
    const named = await seedDemo(database.db, { username: 'DEMO-ANNA', units: 3 });
    expect(named).toMatchObject({ username: 'demo-anna', password: null, units: 3 });
    await expect(seedDemo(database.db, { username: 'nobody-here' })).rejects.toThrow('No user named nobody-here.');
  });
});
