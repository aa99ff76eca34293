import { eq, inArray } from 'drizzle-orm';
import type { TReviewMode, TTask, TTaskStatus, TUnit } from '@stageline/shared';
import { expect } from 'vitest';
import { schema } from '../src/db';
import type { TestApp } from './helpers';
import { buildPipeline, buildProject } from './pipelines';
import { as } from './workspaces';

/**
 * Factories of flows (a pipeline with stage settings, default people and edges, written straight to
 * the database) and of units (through the API, so their tasks are made the way the product makes
 * them), plus shortcuts to act on tasks.
 */

export type StageSpec = {
  name?: string;
  reviewMode?: TReviewMode;
  todoEnabled?: boolean;
  skipReviewIfNoReviewers?: boolean;
  acceptEditAsDone?: boolean;
  dueDays?: number | null;
  dueDate?: string | null;
  reviewers?: { id: number }[];
  assignees?: { id: number }[];
};

/** An edge by stage index, or 'root' / 'end'. */
export type EdgeSpec = [number | 'root', number | 'end'];

export type Flow = Awaited<ReturnType<typeof buildFlow>>;

/** A project with one pipeline of `stages` (settings and default people as given) and `edges`. */
export async function buildFlow(
  t: TestApp,
  { workspace, stages: specs, edges = [] }: { workspace: { id: number }; stages: StageSpec[]; edges?: EdgeSpec[] },
) {
  const db = t.database.db;
  const project = await buildProject(t, { workspace });
  const pipeline = await buildPipeline(t, { project, stages: specs.length });
  for (const [i, spec] of specs.entries()) {
    const id = pipeline.stages[i]!;
    await db
      .update(schema.stages)
      .set({
        name: spec.name ?? `Stage ${i + 1}`,
        reviewMode: spec.reviewMode ?? 'each_immediate',
        todoEnabled: spec.todoEnabled ?? true,
        skipReviewIfNoReviewers: spec.skipReviewIfNoReviewers ?? false,
        acceptEditAsDone: spec.acceptEditAsDone ?? false,
        defaultDueDays: spec.dueDays ?? null,
        defaultDueDate: spec.dueDate ?? null,
      })
      .where(eq(schema.stages.id, id));
    if (spec.reviewers?.length)
      await db.insert(schema.stageDefaultReviewers).values(spec.reviewers.map((u) => ({ stageId: id, userId: u.id })));
    if (spec.assignees?.length)
      await db.insert(schema.stageDefaultAssignees).values(spec.assignees.map((u) => ({ stageId: id, userId: u.id })));
  }
  const ref = (end: number | 'root' | 'end') =>
    end === 'root' ? pipeline.root : end === 'end' ? pipeline.end : pipeline.stages[end]!;
  if (edges.length > 0) {
    await db
      .insert(schema.stageEdges)
      .values(edges.map(([s, e]) => ({ pipelineId: pipeline.id, sourceId: ref(s), targetId: ref(e) })));
  }
  return { project, pipeline, stages: pipeline.stages };
}

/** A unit made through POST units/ by `user` (a Member or above). */
export async function buildUnit(
  t: TestApp,
  user: { headers: { authorization: string } },
  flow: Flow,
  name = `Unit ${Math.random().toString(36).slice(2, 8)}`,
): Promise<TUnit> {
  const response = await as(t, user)('POST', '/api/units/', {
    project: flow.project.id,
    pipeline: flow.pipeline.id,
    name,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<TUnit>();
}

/** The task of `unit` at stage index `i`. */
export const taskAt = (unit: TUnit, flow: Flow, i: number) => unit.tasks.find((c) => c.stage === flow.stages[i])!.id;

/** Sets statuses straight in the database (arranging a scene, not testing a transition). */
export async function setStatus(t: TestApp, taskIds: number[], status: TTaskStatus) {
  await t.database.db.update(schema.tasks).set({ status }).where(inArray(schema.tasks.id, taskIds));
}

/** Calls a task action as `user` and returns the response. */
export function act(
  t: TestApp,
  user: { headers: { authorization: string } },
  taskId: number,
  action: 'start' | 'submit' | 'accept' | 'reject',
  payload?: object,
) {
  return as(t, user)('POST', `/api/tasks/${taskId}/${action}/`, payload);
}

/** Calls a task action that must succeed and returns the task. */
export function ok(response: { statusCode: number; body: string; json: <T>() => T }): TTask {
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TTask>();
}
