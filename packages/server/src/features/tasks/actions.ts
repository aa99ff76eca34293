import { eq, sql } from 'drizzle-orm';
import {
  canRemind,
  canSkipReview,
  RemindIntervalMs,
  ReviewRuleMessages,
  type TTask,
  type TTaskAction,
  type ZTaskPatch,
} from '@stageline/shared';
import { ScheduleMessages } from '@stageline/shared/schedule';
import type { z } from 'zod';
import { schema, type Db } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { recordHistory, type HistoryChange } from '../history';
import { notifyReviewRequested, reportTaskChanges, type TaskChange, type TaskSnapshot } from '../notifications';
import { assertTeams } from '../teams';
import type { Actor } from '../workspaces';
import { authorizeTaskAction, lockTaskUnit, type TaskScope } from './policy';
import { loadTask } from './read';
import { refreshReadiness } from './sql';
import { effectivePeople, lockTasks, membersAmong, persist, runEngine, type EngineTask } from './state';
import { reviewRulesOf } from './teams';

const { tasks, taskAssignees, taskReviewers, taskAssigneeTeams, taskReviewerTeams } = schema;

export const notAMember = 'Only members of the workspace can be chosen.';

type TaskPatch = z.infer<typeof ZTaskPatch>;

/** The action as the engine takes it, from what the caller asked. */
export type TaskCommand =
  | { type: 'start' | 'submit' }
  | { type: 'accept'; comment?: string }
  | { type: 'reject'; comment?: string; returnTo?: number[] };

function engineAction(command: TaskCommand, actor: number): TTaskAction {
  switch (command.type) {
    case 'start':
    case 'submit':
      return { type: command.type, actor };
    case 'accept':
      return { type: 'accept', actor, ...(command.comment !== undefined ? { comment: command.comment } : {}) };
    case 'reject':
      return {
        type: 'reject',
        actor,
        ...(command.comment !== undefined ? { comment: command.comment } : {}),
        ...(command.returnTo !== undefined ? { returnTo: command.returnTo } : {}),
      };
  }
}

/** Reviewers who review only through teams, with the teams' names ("Lighting leads, Grading"). */
function reviewerTeamNames(task: EngineTask): Map<number, string> {
  return new Map(
    [...task.people.throughTeams].map(([userId, teams]) => [
      userId,
      teams
        .map((id) => task.teamNames.get(id) ?? '')
        .filter(Boolean)
        .join(', '),
    ]),
  );
}

/** What notifications compare before and after a change. */
const snapshot = (task: EngineTask): TaskSnapshot => ({
  status: task.state.status,
  assignees: [...task.assignees],
  reviewers: [...task.state.reviewers],
  iteration: task.state.iteration,
  reviewerTeams: reviewerTeamNames(task),
  roundComments: [...task.roundComments],
});

/**
 * What `work` reports beyond the task itself: an edit of people or due date, other tasks it changed,
 * and changes of history the snapshots do not show (due date, estimate).
 */
type WorkResult = { edited?: boolean; others?: TaskChange[]; history?: HistoryChange[] } | void;

const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

/**
 * The history of a task change (docs/history-and-audit.md) that its snapshots show: status,
 * assignees and reviewers, old → new.
 */
function snapshotHistory(change: TaskChange): HistoryChange[] {
  const at = { unitId: change.task.unitId, taskId: change.task.id };
  const { before, after } = change;
  const changes: HistoryChange[] = [];
  if (before.status !== after.status) changes.push({ ...at, field: 'status', old: before.status, new: after.status });
  for (const field of ['assignees', 'reviewers'] as const) {
    const [old, next] = [sorted(before[field]), sorted(after[field])];
    if (old.join() !== next.join()) changes.push({ ...at, field, old, new: next });
  }
  return changes;
}

/** What the work inside `inTaskTransaction` is given besides the transaction. */
type TaskWork = {
  task: EngineTask;
  /** Every task locked, by id: the task and, for a reject's `return_to`, the named stages' tasks. */
  locked: Map<number, EngineTask>;
  actor: Actor;
  scope: TaskScope;
  now: Date;
};

/**
 * One transaction around a task: the caller authorized and the unit locked in one statement, then
 * the task (and, for a reject with `return_to`, the named predecessors' tasks) row-locked and read
 * with its context in another, then `work` on the locked state, then readiness of the unit's tasks
 * refreshed when a status changed, and the changes reported (live events, webhooks and
 * notifications, in the same transaction). The answer is read after commit, in one statement
 * (docs/architecture.md, "Statements").
 */
async function inTaskTransaction(
  db: Db,
  { userId, taskId, returnTo = [] }: { userId: number; taskId: number; returnTo?: readonly number[] },
  work: (tx: Db, on: TaskWork) => Promise<WorkResult>,
): Promise<TTask> {
  await db.transaction(async (tx) => {
    const now = new Date();
    const { actor, scope } = await lockTaskUnit(tx, { userId, taskId });
    const locked = await lockTasks(tx, scope, returnTo);
    const task = locked.get(taskId);
    if (!task) throw new AppError('not_found');
    const status = task.row.status;
    const before = snapshot(task);
    const result = await work(tx, { task, locked, actor, scope, now });
    // Readiness of the unit's tasks can only change when a status did (sent-back tasks move with this one).
    if (task.state.status !== status) await refreshReadiness(tx, sql`t.unit_id = ${scope.unitId}`, now);
    const self: TaskChange = {
      task: { id: taskId, unitId: scope.unitId, stageId: task.row.stageId, pipelineId: scope.pipelineId },
      before,
      after: snapshot(task),
      edited: result?.edited ?? false,
    };
    const changes = [self, ...(result?.others ?? [])];
    // The task's history, in the budget of one statement (docs/history-and-audit.md).
    await recordHistory(tx, {
      workspaceId: scope.workspaceId,
      actorId: actor.userId,
      changes: [...changes.flatMap(snapshotHistory), ...(result?.history ?? [])],
    });
    await reportTaskChanges(tx, { actorId: actor.userId, workspaceId: scope.workspaceId, changes });
  });
  return loadTask(db, { userId, taskId });
}

/**
 * POST tasks/{id}/start|submit|accept|reject/: the engine's transition on the locked task, its
 * history, and its effects: a rejection's `return_to` sends the named predecessor tasks (same unit)
 * back with `send_back`, all in one transaction (docs/rules.md §Tasks).
 */
export async function actOnTask(
  db: Db,
  { userId, taskId, command }: { userId: number; taskId: number; command: TaskCommand },
): Promise<TTask> {
  const returnTo = command.type === 'reject' ? (command.returnTo ?? []) : [];
  return inTaskTransaction(db, { userId, taskId, returnTo }, async (tx, { task, locked, actor, scope, now }) => {
    authorizeTaskAction(actor, command.type, {
      assignees: task.assignees,
      reviewers: task.state.reviewers,
      allowSelfReview: task.review.allowSelfReview,
    });
    const action = engineAction(command, userId);
    const result = runEngine(task, action);
    await persist(tx, task, action, result, { actorId: userId, now });
    if (result.effects.returnTo.length === 0) return;
    const comment = command.type === 'reject' ? command.comment : undefined;
    const others: TaskChange[] = [];
    for (const predecessor of locked.values()) {
      const { row } = predecessor;
      if (row.id === task.row.id || !result.effects.returnTo.includes(row.stageId)) continue;
      const before = snapshot(predecessor);
      const sendBack: TTaskAction = { type: 'send_back', actor: userId, ...(comment !== undefined ? { comment } : {}) };
      await persist(tx, predecessor, sendBack, runEngine(predecessor, sendBack), { actorId: userId, now });
      others.push({
        task: { id: row.id, unitId: scope.unitId, stageId: row.stageId, pipelineId: scope.pipelineId },
        before,
        after: snapshot(predecessor),
        sentBack: { comment: comment ?? '' },
      });
    }
    return { others };
  });
}

const current = (task: EngineTask) => ({ assignees: task.assignees, reviewers: task.state.reviewers });

const same = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && [...a].sort((x, y) => x - y).every((v, i) => v === [...b].sort((x, y) => x - y)[i]);

async function replaceOwn(
  tx: Db,
  taskId: number,
  which: 'assignees' | 'reviewers' | 'assignee_teams' | 'reviewer_teams',
  ids: number[],
) {
  const unique = [...new Set(ids)];
  if (which === 'assignees' || which === 'reviewers') {
    const table = which === 'assignees' ? taskAssignees : taskReviewers;
    await tx.delete(table).where(eq(table.taskId, taskId));
    if (unique.length > 0) await tx.insert(table).values(unique.map((userId) => ({ taskId, userId })));
    return;
  }
  const table = which === 'assignee_teams' ? taskAssigneeTeams : taskReviewerTeams;
  await tx.delete(table).where(eq(table.ownerId, taskId));
  if (unique.length > 0) await tx.insert(table).values(unique.map((teamId) => ({ ownerId: taskId, teamId })));
}

/** What changes a task's own people and teams (PATCH, and "Take"). */
type PeopleChange = Pick<
  TaskPatch,
  'assignees' | 'reviewers' | 'assignee_teams' | 'reviewer_teams' | 'due_date' | 'use_stage_defaults'
>;

/** The reviewers named one by one (not only through a reviewer team): what own values seed from. */
const ownReviewers = (task: EngineTask) => task.state.reviewers.filter((id) => !task.people.throughTeams.has(id));

/**
 * Applies a change of people, teams, due date or use-stage-defaults to the locked task: giving any
 * of them switches the task to its own values (seeded from the effective ones for what is not
 * given), and `use_stage_defaults: true` switches back. A change of effective reviewers during
 * review goes through the engine (`set_reviewers`: it may close the round). Returns whether
 * anything was edited.
 */
async function applyPeopleChange(
  tx: Db,
  task: EngineTask,
  { change, workspaceId, userId, now }: { change: PeopleChange; workspaceId: number; userId: number; now: Date },
): Promise<boolean> {
  const wantsPeople =
    change.assignees !== undefined ||
    change.reviewers !== undefined ||
    change.assignee_teams !== undefined ||
    change.reviewer_teams !== undefined ||
    change.due_date !== undefined;
  const useDefaults = change.use_stage_defaults ?? (wantsPeople ? false : task.row.useStageDefaults);
  const edited = useDefaults !== task.row.useStageDefaults || wantsPeople;
  if (!edited) return false;
  const seeding = task.row.useStageDefaults && !useDefaults;
  const assignees = change.assignees ?? (seeding ? task.assignees : undefined);
  const reviewers = change.reviewers ?? (seeding ? ownReviewers(task) : undefined);
  const assigneeTeams = change.assignee_teams ?? (seeding ? task.people.assigneeTeams : undefined);
  const reviewerTeams = change.reviewer_teams ?? (seeding ? task.people.reviewerTeams : undefined);
  if (assignees) await replaceOwn(tx, task.row.id, 'assignees', assignees);
  if (reviewers) await replaceOwn(tx, task.row.id, 'reviewers', reviewers);
  if (assigneeTeams) await replaceOwn(tx, task.row.id, 'assignee_teams', assigneeTeams);
  if (reviewerTeams) await replaceOwn(tx, task.row.id, 'reviewer_teams', reviewerTeams);
  const dueDate =
    change.due_date !== undefined
      ? change.due_date === null
        ? null
        : new Date(change.due_date)
      : seeding
        ? task.row.effectiveDue // the stage's, while the task followed its defaults
        : undefined;
  await tx
    .update(tasks)
    .set({ useStageDefaults: useDefaults, updatedAt: now, ...(dueDate !== undefined ? { dueDate } : {}) })
    .where(eq(tasks.id, task.row.id));
  const effective = (await effectivePeople(tx, workspaceId, [task.row.id])).get(task.row.id)!;
  task.assignees = effective.assignees;
  task.people = effective;
  task.ctx = { ...task.ctx, reviewRules: await reviewRulesOf(tx, workspaceId, task.review, effective.assignees) };
  if (!same(effective.reviewers, task.state.reviewers)) {
    const action: TTaskAction = { type: 'set_reviewers', reviewers: effective.reviewers, actor: userId };
    await persist(tx, task, action, runEngine(task, action), { actorId: userId, now });
  }
  return true;
}

/**
 * PATCH tasks/{id}/ (Members and above): people, teams and due date (`applyPeopleChange`), then
 * `status` (`set_status`).
 */
export async function patchTask(
  db: Db,
  { userId, taskId, patch }: { userId: number; taskId: number; patch: TaskPatch },
): Promise<TTask> {
  return inTaskTransaction(db, { userId, taskId }, async (tx, { task, actor, scope, now }) => {
    const people = [...(patch.assignees ?? []), ...(patch.reviewers ?? [])];
    const members = await membersAmong(tx, scope.workspaceId, people);
    const errors: Record<string, string[]> = {};
    for (const field of ['assignees', 'reviewers'] as const) {
      if (patch[field]?.some((id) => !members.has(id))) errors[field] = [notAMember];
    }
    if (Object.keys(errors).length > 0) throw new FieldError(errors);
    await assertTeams(tx, scope.workspaceId, [
      { field: 'assignee_teams', ids: patch.assignee_teams },
      { field: 'reviewer_teams', ids: patch.reviewer_teams },
    ]);
    const { status, estimate_hours: estimate, start_date: start, ...change } = patch;
    if (estimate !== undefined || start !== undefined || Object.values(change).some((v) => v !== undefined))
      authorizeTaskAction(actor, 'update', current(task));
    if (status !== undefined) authorizeTaskAction(actor, 'set_status', current(task));
    // Skipping review (docs/review-rules.md): on a stage that enforces it, only Admins set Done by
    // hand or make themselves a reviewer of a task they are assigned to.
    const skip = canSkipReview(actor.role, task.review.enforceReview);
    if (!skip && status === 'done' && task.state.status !== 'done') throw enforced(ReviewRuleMessages.enforcedDone);
    const wasReviewer = task.people.reviewers.includes(userId);
    const wasAssignee = task.assignees.includes(userId);
    const dueBefore = task.row.effectiveDue?.toISOString() ?? null;
    let edited = await applyPeopleChange(tx, task, { change, workspaceId: scope.workspaceId, userId, now });
    const history: HistoryChange[] = [];
    const at = { unitId: scope.unitId, taskId: task.row.id };
    if (change.due_date !== undefined) {
      const dueAfter = change.due_date === null ? null : new Date(change.due_date).toISOString();
      if (dueAfter !== dueBefore) history.push({ ...at, field: 'due_date', old: dueBefore, new: dueAfter });
    }
    // The estimate (docs/time.md) is the task's own from the start: no stage default follows it.
    if (estimate !== undefined) {
      await tx.update(tasks).set({ estimateHours: estimate, updatedAt: now }).where(eq(tasks.id, task.row.id));
      edited = true;
      const old = task.row.estimateHours ?? null;
      if (old !== estimate) history.push({ ...at, field: 'estimate', old, new: estimate });
    }
    // The planned start (docs/schedule.md) is the task's own, like the estimate; never after the due date.
    if (start !== undefined) {
      await tx.update(tasks).set({ startDate: start, updatedAt: now }).where(eq(tasks.id, task.row.id));
      edited = true;
    }
    const datesChanged =
      start !== undefined || change.due_date !== undefined || change.use_stage_defaults !== undefined;
    const [dates] = datesChanged
      ? await tx
          .select({ start: tasks.startDate, due: tasks.effectiveDue })
          .from(tasks)
          .where(eq(tasks.id, task.row.id))
      : [];
    if (dates?.start && dates.due && dates.start > dates.due.toISOString().slice(0, 10))
      throw new FieldError({ [start !== undefined ? 'start_date' : 'due_date']: [ScheduleMessages.startAfterDue] });
    const selfReviewer = !wasReviewer && task.people.reviewers.includes(userId);
    if (!skip && selfReviewer && (wasAssignee || task.assignees.includes(userId)))
      throw enforced(ReviewRuleMessages.enforcedSelfReviewer);
    if (status !== undefined) {
      const action: TTaskAction = { type: 'set_status', status, actor: userId };
      await persist(tx, task, action, runEngine(task, action), { actorId: userId, now });
    }
    return { edited, history };
  });
}

/** A refusal of an enforcing stage (403, `rule: enforced_review`); the transaction rolls back. */
const enforced = (message: string) => new AppError('permission_denied', message, {}, {}, { rule: 'enforced_review' });

export const TakeMessages = {
  notInTeam: 'Only a member of a team this task is assigned to can take it.',
  done: 'This task is done: there is nothing to take.',
} as const;

/**
 * POST tasks/{id}/take/ (a team queue's "Take", docs/review-rules.md): a member of one of the
 * task's assignee teams becomes an assignee, and the task leaves its teams' queues (its own
 * assignee teams are emptied), for every member at once (a live event).
 */
export async function takeTask(db: Db, { userId, taskId }: { userId: number; taskId: number }): Promise<TTask> {
  return inTaskTransaction(db, { userId, taskId }, async (tx, { task, scope, now }) => {
    const inTeam = task.people.assigneeTeams.some((team) => task.members.get(team)?.includes(userId));
    if (!inTeam) throw new AppError('permission_denied', TakeMessages.notInTeam);
    if (task.state.status === 'done') throw new AppError('conflict', TakeMessages.done);
    const change: PeopleChange = { assignees: [...new Set([...task.assignees, userId])], assignee_teams: [] };
    return { edited: await applyPeopleChange(tx, task, { change, workspaceId: scope.workspaceId, userId, now }) };
  });
}

/**
 * POST tasks/{id}/remind/ (re-request review, docs/review-rules.md): an assignee reminds the
 * reviewers who have not reacted in the open round (a `review_requested` notification naming their
 * team), at most once an hour per task (429 with `Retry-After`).
 */
export async function remindReviewers(db: Db, { userId, taskId }: { userId: number; taskId: number }): Promise<TTask> {
  return inTaskTransaction(db, { userId, taskId }, async (tx, { task, scope, now }) => {
    if (!task.assignees.includes(userId)) throw new AppError('permission_denied', ReviewRuleMessages.remindNotAssignee);
    const round = task.state.iteration;
    if (task.state.status !== 'review' || !round || round.closed)
      throw new AppError('conflict', ReviewRuleMessages.remindNotInReview);
    if (!canRemind(task.row.remindedAt, now)) {
      const wait = Math.ceil((task.row.remindedAt!.getTime() + RemindIntervalMs - now.getTime()) / 1000);
      throw new AppError('rate_limited', ReviewRuleMessages.remindTooSoon, {}, { 'Retry-After': String(wait) });
    }
    await tx.update(tasks).set({ remindedAt: now }).where(eq(tasks.id, task.row.id));
    const waiting = task.state.reviewers.filter(
      (id) => !round.acceptedBy.includes(id) && !round.rejectedBy.includes(id),
    );
    await notifyReviewRequested(
      tx,
      { actorId: userId, workspaceId: scope.workspaceId, taskId: task.row.id, unitId: scope.unitId },
      waiting,
      reviewerTeamNames(task),
    );
  });
}
