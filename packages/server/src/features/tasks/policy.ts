import { and, eq } from 'drizzle-orm';
import { canReview, canWork, isSelfReview, ReviewRuleMessages, type TTaskAction } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { authorize, type Actor } from '../workspaces';
import { taskError } from './state';

const { tasks, units, pipelines, projects, memberships } = schema;

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
  // The task's place and the caller's role in its workspace, in one statement.
  const [row] = await db
    .select({
      taskId: tasks.id,
      unitId: tasks.unitId,
      stageId: tasks.stageId,
      pipelineId: units.pipelineId,
      projectId: units.projectId,
      workspaceId: projects.workspaceId,
      role: memberships.role,
    })
    .from(tasks)
    .innerJoin(units, eq(units.id, tasks.unitId))
    .innerJoin(pipelines, eq(pipelines.id, units.pipelineId))
    .innerJoin(projects, eq(projects.id, pipelines.projectId))
    .innerJoin(memberships, and(eq(memberships.workspaceId, projects.workspaceId), eq(memberships.userId, userId)))
    .where(eq(tasks.id, taskId));
  if (!row) throw new AppError('not_found');
  const { role, ...scope } = row;
  const actor: Actor = { userId, workspaceId: scope.workspaceId, role };
  authorize(actor, 'task', 'view');
  return { actor, scope };
}

/**
 * May the actor do this to a task whose effective people are known (docs/rules.md §Roles, §Tasks)?
 * Start and submit: its assignees and Members and above (`canWork`); accept and reject: its
 * reviewers only, Guests included (`canReview`), never an assignee unless the stage allows
 * self-review; a status or people change: Members and above.
 * Checked inside the transaction, on the locked task, so a reviewer removed a moment ago cannot act.
 */
export function authorizeTaskAction(
  actor: Actor,
  action: TTaskAction['type'] | 'update',
  people: { assignees: readonly number[]; reviewers: readonly number[]; allowSelfReview?: boolean },
): void {
  switch (action) {
    case 'start':
    case 'submit':
      if (!canWork(actor.role, people.assignees.includes(actor.userId))) throw new AppError('permission_denied');
      return;
    case 'accept':
    case 'reject':
      // No self-review (docs/review-rules.md): asked first, so an assignee hears why, reviewer or not.
      if (isSelfReview(actor.userId, people.assignees, people.allowSelfReview ?? false))
        throw new AppError('permission_denied', ReviewRuleMessages.selfReview, {}, {}, { rule: 'self_review' });
      if (!canReview(people.reviewers.includes(actor.userId))) throw taskError('not_a_reviewer');
      return;
    case 'set_status':
      authorize(actor, 'task', 'set_status');
      return;
    default:
      authorize(actor, 'task', 'update');
  }
}
