import { eq } from 'drizzle-orm';
import { canReview, canWork, type TTaskAction } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { actorIn, authorize, type Actor } from '../workspaces';
import { taskError } from './state';

const { tasks, units, pipelines, projects } = schema;

/** Where a task lives: its unit, stage, pipeline, project and workspace. */
export type TaskScope = {
  taskId: number;
  unitId: number;
  stageId: number;
  pipelineId: number;
  projectId: number;
  workspaceId: number;
};

/**
 * A task and the caller in its workspace: 404 when the task does not exist or the caller is not in
 * its workspace (ids do not leak). Reading needs no more (every role views tasks).
 */
export async function authorizeTask(
  db: Db,
  { userId, taskId }: { userId: number; taskId: number },
): Promise<{ actor: Actor; scope: TaskScope }> {
  const [scope] = await db
    .select({
      taskId: tasks.id,
      unitId: tasks.unitId,
      stageId: tasks.stageId,
      pipelineId: units.pipelineId,
      projectId: units.projectId,
      workspaceId: projects.workspaceId,
    })
    .from(tasks)
    .innerJoin(units, eq(units.id, tasks.unitId))
    .innerJoin(pipelines, eq(pipelines.id, units.pipelineId))
    .innerJoin(projects, eq(projects.id, pipelines.projectId))
    .where(eq(tasks.id, taskId));
  if (!scope) throw new AppError('not_found');
  const actor = await actorIn(db, userId, scope.workspaceId);
  authorize(actor, 'task', 'view');
  return { actor, scope };
}

/**
 * May the actor do this to a task whose effective people are known (docs/rules.md §Roles, §Tasks)?
 * Start and submit: its assignees and Members and above (`canWork`); accept and reject: its
 * reviewers only, Guests included (`canReview`); a status or people change: Members and above.
 * Checked inside the transaction, on the locked task, so a reviewer removed a moment ago cannot act.
 */
export function authorizeTaskAction(
  actor: Actor,
  action: TTaskAction['type'] | 'update',
  people: { assignees: readonly number[]; reviewers: readonly number[] },
): void {
  switch (action) {
    case 'start':
    case 'submit':
      if (!canWork(actor.role, people.assignees.includes(actor.userId))) throw new AppError('permission_denied');
      return;
    case 'accept':
    case 'reject':
      if (!canReview(people.reviewers.includes(actor.userId))) throw taskError('not_a_reviewer');
      return;
    case 'set_status':
      authorize(actor, 'task', 'set_status');
      return;
    default:
      authorize(actor, 'task', 'update');
  }
}
