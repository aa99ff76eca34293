import { schema } from '../src/db';
import type { TestApp } from './helpers';

/**
 * Factories of projects and pipelines written straight to the database, like `workspaces.ts`: a
 * pipeline comes with its start and end, as `POST pipelines/` makes it.
 */

/** A project in `workspace`. */
export async function buildProject(t: TestApp, { workspace, name }: { workspace: { id: number }; name?: string }) {
  const [row] = await t.database.db
    .insert(schema.projects)
    .values({ workspaceId: workspace.id, name: name ?? `Project ${Math.random().toString(36).slice(2, 8)}` })
    .returning({ id: schema.projects.id });
  return { id: row!.id };
}

/** A pipeline in `project` with its start and end; `stages` more stages (not connected) when asked. */
export async function buildPipeline(
  t: TestApp,
  { project, name, stages = 0 }: { project: { id: number }; name?: string; stages?: number },
) {
  const db = t.database.db;
  const [row] = await db
    .insert(schema.pipelines)
    .values({ projectId: project.id, name: name ?? 'Pipeline' })
    .returning({ id: schema.pipelines.id });
  const pipelineId = row!.id;
  const nodes = await db
    .insert(schema.stages)
    .values([
      { pipelineId, kind: 'root', name: 'Start', x: 0, y: 0 },
      { pipelineId, kind: 'end', name: 'End', x: 0, y: 320 },
      ...Array.from({ length: stages }, (_, i) => ({ pipelineId, kind: 'stage', name: `Stage ${i + 1}`, x: 0, y: 0 })),
    ])
    .returning({ id: schema.stages.id, kind: schema.stages.kind });
  return {
    id: pipelineId,
    root: nodes.find((n) => n.kind === 'root')!.id,
    end: nodes.find((n) => n.kind === 'end')!.id,
    stages: nodes.filter((n) => n.kind === 'stage').map((n) => n.id),
  };
}
