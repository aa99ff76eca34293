import { asc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { TPipelineCreate, TPipelinePatch, TPipelineSummary } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { recordAudit } from '../audit';
import { authorizeProject } from '../projects';
import { countTasks } from '../tasks';
import { authorize, inWorkspacesOf } from '../workspaces';
import { authorizePipeline } from './policy';
import { presentSummary } from './presenter';
import { loadPipeline } from './read';
import { emitWebhookEvents } from '../events';

const { projects, pipelines, stages } = schema;

async function selectSummaries(db: Db, where: SQL | undefined, counted: boolean): Promise<TPipelineSummary[]> {
  const rows = await db
    .select({
      ...getTableColumns(pipelines),
      stagesCount: sql<number>`(select count(*)::int from ${stages} s where s.pipeline_id = ${pipelines}.id and s.kind = 'stage')`,
    })
    .from(pipelines)
    .where(where)
    .orderBy(asc(sql`lower(${pipelines.name})`), asc(pipelines.id));
  // The counters read every task of the pipelines (decision 120): only when the caller wants them.
  const counters = counted ? await countTasks(db, { pipelineIds: rows.map((row) => row.id), by: 'pipeline' }) : null;
  return rows.map((row) => presentSummary({ ...row, stagesCount: Number(row.stagesCount) }, counters));
}

/** Where a new pipeline's start and end go: one above the other, or side by side when horizontal. */
export function startEndPositions(layout: 'horizontal' | 'vertical') {
  return layout === 'horizontal'
    ? { root: { x: 0, y: 0 }, end: { x: 480, y: 0 } }
    : { root: { x: 0, y: 0 }, end: { x: 0, y: 320 } };
}

/**
 * POST pipelines/ (Member and above): the pipeline with its start and end, in one transaction;
 * its nodes carry the project's review defaults, as every stage created later will.
 */
export async function createPipeline(db: Db, { userId, input }: { userId: number; input: TPipelineCreate }) {
  const { actor, project } = await authorizeProject(db, { userId, projectId: input.project, action: 'view' });
  authorize(actor, 'pipeline', 'create');
  const layout = input.layout ?? 'vertical';
  const positions = startEndPositions(layout);
  const settings = {
    reviewMode: project.reviewMode,
    skipReviewIfNoReviewers: project.skipReviewIfNoReviewers,
    acceptEditAsDone: project.acceptEditAsDone,
    todoEnabled: project.todoEnabled,
  };
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(pipelines)
      .values({ projectId: project.id, name: input.name, description: input.description ?? '', layout })
      .returning({ id: pipelines.id });
    await tx.insert(stages).values([
      { pipelineId: row!.id, kind: 'root', name: 'Start', ...positions.root, ...settings },
      { pipelineId: row!.id, kind: 'end', name: 'End', ...positions.end, ...settings },
    ]);
    return row!.id;
  });
  return loadPipeline(db, { pipelineId: id, workspaceId: project.workspaceId });
}

/**
 * GET pipelines/: the pipelines of one project (404 when the caller cannot see it), or of every
 * project in the caller's workspaces.
 */
export async function listPipelines(
  db: Db,
  { userId, projectId, counters = true }: { userId: number; projectId?: number; counters?: boolean },
) {
  if (projectId !== undefined) {
    await authorizeProject(db, { userId, projectId, action: 'view' });
    return selectSummaries(db, eq(pipelines.projectId, projectId), counters);
  }
  const visible = db.select({ id: projects.id }).from(projects).where(inWorkspacesOf(userId, projects.workspaceId));
  return selectSummaries(db, inArray(pipelines.projectId, visible), counters);
}

/** GET pipelines/{id}/. */
export async function getPipeline(db: Db, { userId, pipelineId }: { userId: number; pipelineId: number }) {
  const { project } = await authorizePipeline(db, { userId, pipelineId, action: 'view' });
  return loadPipeline(db, { pipelineId, workspaceId: project.workspaceId });
}

/** PATCH pipelines/{id}/ (Member and above): name, description, layout; the graph has its own call. */
export async function updatePipeline(
  db: Db,
  { userId, pipelineId, patch }: { userId: number; pipelineId: number; patch: TPipelinePatch },
) {
  const { project } = await authorizePipeline(db, { userId, pipelineId, action: 'update' });
  const changes = Object.fromEntries(
    Object.entries({ name: patch.name, description: patch.description, layout: patch.layout }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  if (Object.keys(changes).length > 0) {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(pipelines)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(pipelines.id, pipelineId))
        .returning({ name: pipelines.name, version: pipelines.version });
      await emitWebhookEvents(tx, project.workspaceId, [
        {
          event: 'pipeline.updated',
          data: {
            pipeline: { id: pipelineId, name: row!.name, project: project.id, version: row!.version },
            change: 'settings',
            fields: Object.keys(changes),
            actor: userId,
          },
        },
      ]);
    });
  }
  return loadPipeline(db, { pipelineId, workspaceId: project.workspaceId });
}

/** DELETE pipelines/{id}/ (Admin and above): its stages and edges go with it. */
export async function deletePipeline(db: Db, { userId, pipelineId }: { userId: number; pipelineId: number }) {
  const { pipeline, project } = await authorizePipeline(db, { userId, pipelineId, action: 'delete' });
  await db.transaction(async (tx) => {
    await tx.delete(pipelines).where(eq(pipelines.id, pipelineId));
    await recordAudit(tx, project.workspaceId, {
      action: 'pipeline.deleted',
      actorId: userId,
      target: { kind: 'pipeline', id: pipelineId, name: pipeline.name },
      details: { project: { id: project.id, name: project.name } },
    });
  });
}
