import { eq } from 'drizzle-orm';
import type { TAction } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { authorizeIn, type Actor } from '../workspaces';

const { projects } = schema;

export type ProjectRow = typeof projects.$inferSelect;

/**
 * A project and the caller in its workspace, allowed to do `action`: 404 when the project does not
 * exist or the caller is not in its workspace (ids do not leak), 403 without the right.
 */
export async function authorizeProject(
  db: Db,
  { userId, projectId, action }: { userId: number; projectId: number; action: TAction<'project'> },
): Promise<{ actor: Actor; project: ProjectRow }> {
  const [project] = await db.select().from(projects).where(eq(projects.id, projectId));
  if (!project) throw new AppError('not_found');
  const actor = await authorizeIn(db, { userId, workspaceId: project.workspaceId, resource: 'project', action });
  return { actor, project };
}
