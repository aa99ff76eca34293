import { eq } from 'drizzle-orm';
import type { TAction } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { authorizeIn, type Actor } from '../workspaces';
import type { ProjectRow } from '../projects';

const { projects, pipelines } = schema;

export type PipelineRow = typeof pipelines.$inferSelect;
export type StageRow = typeof schema.stages.$inferSelect;

/**
 * A pipeline, its project and the caller in their workspace, allowed to do `action`: 404 when the
 * pipeline does not exist or the caller is not in its workspace, 403 without the right.
 */
export async function authorizePipeline(
  db: Db,
  { userId, pipelineId, action }: { userId: number; pipelineId: number; action: TAction<'pipeline'> },
): Promise<{ actor: Actor; pipeline: PipelineRow; project: ProjectRow }> {
  const [row] = await db
    .select({ pipeline: pipelines, project: projects })
    .from(pipelines)
    .innerJoin(projects, eq(projects.id, pipelines.projectId))
    .where(eq(pipelines.id, pipelineId));
  if (!row) throw new AppError('not_found');
  const actor = await authorizeIn(db, { userId, workspaceId: row.project.workspaceId, resource: 'pipeline', action });
  return { actor, ...row };
}

/** The same for stages (a stage is edited with the rights of `stage`, read with those of `view`). */
export async function authorizeStages(
  db: Db,
  { userId, rows, action }: { userId: number; rows: { workspaceId: number }[]; action: TAction<'stage'> },
): Promise<Actor> {
  const workspaceId = rows[0]?.workspaceId;
  if (workspaceId === undefined) throw new AppError('not_found');
  return authorizeIn(db, { userId, workspaceId, resource: 'stage', action });
}
