import { and, eq } from 'drizzle-orm';
import type { TAction } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { authorizeProject, type ProjectRow } from '../projects';
import { loadGraphFor, type PipelineGraphFor } from '../tasks';
import { authorize, authorizeIn, type Actor } from '../workspaces';

const { units, pipelines, projects } = schema;

export type UnitRow = typeof units.$inferSelect;

/**
 * The pipeline a new unit goes into, checked to belong to the project, and the caller allowed to
 * create units there: 404 when either is not visible (or they do not match), 403 without the right.
 */
export async function authorizeNewUnit(
  db: Db,
  { userId, projectId, pipelineId }: { userId: number; projectId: number; pipelineId: number },
): Promise<{ actor: Actor; project: ProjectRow }> {
  const { actor, project } = await authorizeProject(db, { userId, projectId, action: 'view' });
  const [pipeline] = await db
    .select({ id: pipelines.id })
    .from(pipelines)
    .where(and(eq(pipelines.id, pipelineId), eq(pipelines.projectId, projectId)));
  if (!pipeline) throw new AppError('not_found');
  await authorizeIn(db, { userId, workspaceId: project.workspaceId, resource: 'unit', action: 'create' });
  return { actor, project };
}

/** A unit and the caller in its workspace, allowed to do `action` (404 / 403 as everywhere). */
export async function authorizeUnit(
  db: Db,
  { userId, unitId, action }: { userId: number; unitId: number; action: TAction<'unit'> },
): Promise<{ actor: Actor; unit: UnitRow; workspaceId: number }> {
  const [row] = await db
    .select({ unit: units, workspaceId: projects.workspaceId })
    .from(units)
    .innerJoin(projects, eq(projects.id, units.projectId))
    .where(eq(units.id, unitId));
  if (!row) throw new AppError('not_found');
  const actor = await authorizeIn(db, { userId, workspaceId: row.workspaceId, resource: 'unit', action });
  return { actor, ...row };
}

/**
 * A pipeline read through the units' rights (the matrix, the pipeline's CSV), with its name, unit
 * count and graph, in one statement (`loadGraphFor`, decision 121): 404 when not visible.
 */
export async function authorizePipelineGraph(
  db: Db,
  { userId, pipelineId }: { userId: number; pipelineId: number },
): Promise<PipelineGraphFor & { actor: Actor }> {
  const found = await loadGraphFor(db, { userId, pipelineId });
  if (!found) throw new AppError('not_found');
  const actor: Actor = { userId, workspaceId: found.workspaceId, role: found.role };
  authorize(actor, 'unit', 'view');
  return { ...found, actor };
}
