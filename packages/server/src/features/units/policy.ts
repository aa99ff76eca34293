import { and, eq } from 'drizzle-orm';
import type { TAction } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { authorizeProject, type ProjectRow } from '../projects';
import { loadGraphFor, type PipelineGraphFor } from '../tasks';
import { authorize, authorizeIn, type Actor } from '../workspaces';

const { units, pipelines, projects, memberships } = schema;

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

/** A pipeline read through the units' rights (the matrix): 404 when not visible. */
export async function authorizePipelineUnits(
  db: Db,
  { userId, pipelineId }: { userId: number; pipelineId: number },
): Promise<{ actor: Actor; workspaceId: number; projectId: number }> {
  // The pipeline's place and the caller's role in its workspace, in one statement.
  const [row] = await db
    .select({ workspaceId: projects.workspaceId, projectId: projects.id, role: memberships.role })
    .from(pipelines)
    .innerJoin(projects, eq(projects.id, pipelines.projectId))
    .innerJoin(memberships, and(eq(memberships.workspaceId, projects.workspaceId), eq(memberships.userId, userId)))
    .where(eq(pipelines.id, pipelineId));
  if (!row) throw new AppError('not_found');
  const { role, ...place } = row;
  const actor: Actor = { userId, workspaceId: place.workspaceId, role };
  authorize(actor, 'unit', 'view');
  return { actor, ...place };
}

/**
 * `authorizePipelineUnits` with the pipeline's graph and unit count, in the same one statement
 * (`loadGraphFor`): what the matrix reads before its units (decision 121).
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
