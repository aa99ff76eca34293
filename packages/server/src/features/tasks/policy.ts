import { sql } from 'drizzle-orm';
import { canReview, canWork, isSelfReview, ReviewRuleMessages, type TTaskAction } from '@stageline/shared';
import { preparedRowsOf, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { authorize, type Actor } from '../workspaces';
import type { TaskScope } from './context';
import { taskError } from './state';

export type { TaskScope } from './context';

/**
 * Authorizes the caller on a task inside the transaction and locks its unit (every change to a
 * unit's tasks takes this lock first, so actions on one unit serialize and never deadlock on each
 * other's successor updates): 404 when the task does not exist or the caller is not in its
 * workspace. One statement.
 */
export async function lockTaskUnit(
  tx: Db,
  { userId, taskId }: { userId: number; taskId: number },
): Promise<{ actor: Actor; scope: TaskScope }> {
  const [row] = await preparedRowsOf<TaskScope & { role: Actor['role'] }>(
    tx,
    'task_lock_unit',
    sql`select tk.id as "taskId", tk.unit_id as "unitId", tk.stage_id as "stageId", unit_.pipeline_id as "pipelineId",
        unit_.project_id as "projectId", project_.workspace_id as "workspaceId", caller_.role
      from tasks tk join units unit_ on unit_.id = tk.unit_id
      join pipelines pipeline_ on pipeline_.id = unit_.pipeline_id
      join projects project_ on project_.id = pipeline_.project_id
      join memberships caller_ on caller_.workspace_id = project_.workspace_id and caller_.user_id = ${userId}
      where tk.id = ${taskId}
      for no key update of unit_`,
  );
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
