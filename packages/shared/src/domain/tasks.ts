/**
 * The task engine of docs/rules.md §Tasks, pure and shared: the server applies it inside a row-locked
 * transaction, the web app calls the same functions to predict what a button will do. Nothing here
 * reads the clock: callers pass `now`.
 *
 * Decisions the specification leaves open (each also noted where it is made):
 * - Accept edit as done: `submit` from `edit` goes straight to `done`, without a review round,
 *   whatever sent the task to `edit` (a rejection, a successor's return, a Member's status change).
 * - Reject's `return_to`: absent means "this task to edit" unless the stage has two or more
 *   predecessor stages, where it is required; an explicit `[]` is the choice "this task to edit".
 * - In `each_wait`, the `return_to` lists of all rejections of an iteration are united, and apply
 *   when it closes.
 * - Only the reactions of current reviewers count; an iteration with no reviewers never decides.
 * - History gets one entry per status change and one per reaction (accept or reject), nothing else.
 */

// Teams and review rules (docs/review-rules.md): this import and the places marked with that name.
import { hasReviewRules, ruleDecision, type TReviewRules } from './review-rules';
import {
  TaskStatuses,
  type TIterationOutcome,
  type TReviewMode,
  type TTaskActionType,
  type TTaskErrorCode,
  type TTaskStatus,
} from './task-vocabulary';

// The engine's words are part of its interface: importers of the engine get them from here too.
export * from './task-vocabulary';

/** A stage's review settings (a project holds the defaults new stages start with). */
export type TStageRules = {
  todoEnabled: boolean;
  reviewMode: TReviewMode;
  skipReviewIfNoReviewers: boolean;
  acceptEditAsDone: boolean;
};

/** One round of review: it opens when the task enters `review` and closes with an outcome. */
export type TIteration = {
  number: number;
  acceptedBy: number[];
  rejectedBy: number[];
  /** The predecessor stages the rejections of this round asked to redo (their union). */
  returnTo: number[];
  closed: boolean;
  outcome: TIterationOutcome | null;
};

/**
 * What the engine needs of a task. `reviewers` are the effective ones (see `effectiveAssignment`);
 * `iteration` is the latest round, open exactly while the status is `review`.
 */
export type TTaskState = {
  status: TTaskStatus;
  reviewers: number[];
  iteration: TIteration | null;
};

/**
 * What someone asks of a task. `actor` (a user id) is recorded in history; reviewers must give it.
 * `set_reviewers` is a change of the effective reviewers (PATCH of `reviewers` or
 * `use_stage_defaults`): it may close an open round, e.g. when the one reviewer `each_wait` was
 * waiting for is removed. `send_back` is what the server applies to each predecessor task named by
 * a rejection's `return_to` effect.
 */
export type TTaskAction =
  | { type: 'start'; actor?: number }
  | { type: 'submit'; actor?: number }
  | { type: 'accept'; actor: number; comment?: string }
  | { type: 'reject'; actor: number; comment?: string; returnTo?: number[] }
  | { type: 'set_status'; status: TTaskStatus; actor?: number }
  | { type: 'set_reviewers'; reviewers: number[]; actor?: number }
  | { type: 'send_back'; actor?: number; comment?: string };

// The list of action types (task-vocabulary.ts) and the union of actions name the same set.
type TSame<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _sameActions: TSame<TTaskActionType, TTaskAction['type']> = true;
void _sameActions;

/**
 * The stage's rules and the ids of its predecessor stages (`stagePredecessors` of graph.ts).
 * `reviewRules` (teams and review rules): a stage's required approvals and team rules; absent or
 * empty, the three modes decide alone.
 */
export type TTaskContext = { rules: TStageRules; predecessors: readonly number[]; reviewRules?: TReviewRules };

/** One history row; the server adds who is acting (if not given) and when. */
export type TTaskHistoryEntry = {
  action: TTaskActionType;
  from: TTaskStatus;
  to: TTaskStatus;
  /** The number of the iteration the entry opens, closes or reacts in; else the latest, or null. */
  iteration: number | null;
  actor?: number;
  comment?: string;
};

/**
 * What the server must do beyond saving this task: send the tasks of `returnTo` stages (same unit)
 * to `edit` with a `send_back` action. `waitForPredecessors` is true when this task went back to
 * its starting status to wait for them.
 */
export type TTaskEffects = { returnTo: number[]; waitForPredecessors: boolean };

export type TTaskResult =
  | { ok: true; state: TTaskState; history: TTaskHistoryEntry[]; effects: TTaskEffects }
  | { ok: false; error: TTaskErrorCode };

/** A moment as the server (Date) or the wire (ISO string) or a timestamp (ms) carries it. */
export type TMoment = Date | string | number;

const toMs = (moment: TMoment): number => (moment instanceof Date ? moment.getTime() : new Date(moment).getTime());

const DayMs = 24 * 60 * 60 * 1000;

/** A new task's status: stages with 'To do' disabled start their tasks in progress. */
export function initialStatus(rules: TStageRules): TTaskStatus {
  return rules.todoEnabled ? 'todo' : 'in_progress';
}

/** The statuses a stage offers (docs/rules.md §Tasks, set status): no `todo` when disabled. */
export function availableStatuses(rules: TStageRules): TTaskStatus[] {
  return rules.todoEnabled ? [...TaskStatuses] : TaskStatuses.filter((s) => s !== 'todo');
}

const noEffects: TTaskEffects = { returnTo: [], waitForPredecessors: false };
const fail = (error: TTaskErrorCode): TTaskResult => ({ ok: false, error });
const unchanged = (state: TTaskState): TTaskResult => ({ ok: true, state, history: [], effects: noEffects });
const unique = (ids: readonly number[]) => [...new Set(ids)];

function openIteration(previous: TIteration | null): TIteration {
  return {
    number: (previous?.number ?? 0) + 1,
    acceptedBy: [],
    rejectedBy: [],
    returnTo: [],
    closed: false,
    outcome: null,
  };
}

function closeIteration(iteration: TIteration | null, outcome: TIterationOutcome): TIteration | null {
  return iteration && !iteration.closed ? { ...iteration, closed: true, outcome } : iteration;
}

/**
 * The decision of an open round under a review mode, or null while it stays open. Only current
 * reviewers' reactions count, and a round with no reviewers decides nothing (it waits for
 * reviewers to be added, or for a Member to set the status).
 */
export function reviewDecision(
  mode: TReviewMode,
  reviewers: readonly number[],
  iteration: TIteration,
): 'done' | 'edit' | null {
  const current = new Set(reviewers);
  if (current.size === 0) return null;
  const accepted = unique(iteration.acceptedBy).filter((r) => current.has(r)).length;
  const rejected = unique(iteration.rejectedBy).filter((r) => current.has(r)).length;
  switch (mode) {
    case 'any':
      return rejected > 0 ? 'edit' : accepted > 0 ? 'done' : null;
    case 'each_immediate':
      return rejected > 0 ? 'edit' : accepted === current.size ? 'done' : null;
    case 'each_wait':
      return accepted + rejected < current.size ? null : rejected > 0 ? 'edit' : 'done';
  }
}

type TTransition = { action: TTaskAction; from: TTaskStatus; iteration: TIteration | null; comment?: string };

function entry({ action, from, iteration, comment }: TTransition, to: TTaskStatus): TTaskHistoryEntry {
  const row: TTaskHistoryEntry = { action: action.type, from, to, iteration: iteration?.number ?? null };
  if (action.actor !== undefined) row.actor = action.actor;
  if (comment !== undefined) row.comment = comment;
  return row;
}

/**
 * Closes a round that has reached its decision. An `edit` decision with `return_to` stages sends
 * those back (an effect) and this task to its starting status, where it waits for them.
 */
function settle(state: TTaskState, iteration: TIteration, ctx: TTaskContext, transition: TTransition): TTaskResult {
  // Teams and review rules: a stage with rules decides by them (review-rules.ts).
  const decision = hasReviewRules(ctx.reviewRules)
    ? ruleDecision(ctx.rules.reviewMode, state.reviewers, iteration, ctx.reviewRules)
    : reviewDecision(ctx.rules.reviewMode, state.reviewers, iteration);
  if (decision === null) {
    const next = { ...state, iteration };
    const history =
      transition.action.type === 'accept' || transition.action.type === 'reject' ? [entry(transition, 'review')] : [];
    return { ok: true, state: next, history, effects: noEffects };
  }
  const returned = decision === 'edit' && iteration.returnTo.length > 0;
  const outcome: TIterationOutcome = returned ? 'returned' : decision;
  const to: TTaskStatus = returned ? initialStatus(ctx.rules) : decision;
  const closed = closeIteration(iteration, outcome);
  return {
    ok: true,
    state: { ...state, status: to, iteration: closed },
    history: [entry({ ...transition, iteration: closed }, to)],
    effects: returned ? { returnTo: [...iteration.returnTo], waitForPredecessors: true } : noEffects,
  };
}

/** Checks a rejection's `return_to` against the stage's predecessors; returns the stages or an error. */
function validateReturnTo(returnTo: number[] | undefined, predecessors: readonly number[]): number[] | TTaskErrorCode {
  if (returnTo === undefined) return predecessors.length >= 2 ? 'return_to_required' : [];
  const allowed = new Set(predecessors);
  if (returnTo.some((id) => !allowed.has(id))) return 'return_to_not_predecessor';
  return unique(returnTo);
}

function react(
  state: TTaskState,
  action: Extract<TTaskAction, { type: 'accept' | 'reject' }>,
  ctx: TTaskContext,
): TTaskResult {
  if (!state.reviewers.includes(action.actor)) return fail('not_a_reviewer');
  const iteration = state.iteration;
  if (state.status !== 'review' || !iteration || iteration.closed) return fail('invalid_transition');
  if (iteration.acceptedBy.includes(action.actor) || iteration.rejectedBy.includes(action.actor))
    return fail('already_reacted');
  let next: TIteration;
  if (action.type === 'accept') {
    next = { ...iteration, acceptedBy: [...iteration.acceptedBy, action.actor] };
  } else {
    const returnTo = validateReturnTo(action.returnTo, ctx.predecessors);
    if (typeof returnTo === 'string') return fail(returnTo);
    next = {
      ...iteration,
      rejectedBy: [...iteration.rejectedBy, action.actor],
      returnTo: unique([...iteration.returnTo, ...returnTo]),
    };
  }
  const transition: TTransition = { action, from: 'review', iteration: next };
  if (action.comment !== undefined) transition.comment = action.comment;
  return settle(state, next, ctx, transition);
}

/** Moves to `to`, closing an open round as `outcome` and opening a new one when entering review. */
function move(
  state: TTaskState,
  to: TTaskStatus,
  transition: Omit<TTransition, 'iteration'>,
  outcome: TIterationOutcome,
): TTaskResult {
  const closed = closeIteration(state.iteration, outcome);
  const iteration = to === 'review' ? openIteration(closed) : closed;
  return {
    ok: true,
    state: { ...state, status: to, iteration },
    history: [entry({ ...transition, iteration }, to)],
    effects: noEffects,
  };
}

/**
 * Applies one action (docs/rules.md §Tasks). Permissions by role are the policy module's; this decides
 * only what the task's state allows, including who counts as a reviewer.
 */
export function applyTaskAction(state: TTaskState, action: TTaskAction, ctx: TTaskContext): TTaskResult {
  const { rules } = ctx;
  const from = state.status;
  switch (action.type) {
    case 'start':
      return from === 'todo' ? move(state, 'in_progress', { action, from }, 'overridden') : fail('invalid_transition');

    case 'submit': {
      if (from !== 'in_progress' && from !== 'edit') return fail('invalid_transition');
      // Skip review: with nobody to review, the work is done. Accept edit as done: a task that was
      // reviewed (or sent back) once and fixed needs no second review round.
      const skip = rules.skipReviewIfNoReviewers && state.reviewers.length === 0;
      const editAsDone = from === 'edit' && rules.acceptEditAsDone;
      return move(state, skip || editAsDone ? 'done' : 'review', { action, from }, 'overridden');
    }

    case 'accept':
    case 'reject':
      return react(state, action, ctx);

    case 'set_status': {
      if (action.status === from) return unchanged(state);
      if (action.status === 'todo' && !rules.todoEnabled) return fail('invalid_transition');
      return move(state, action.status, { action, from }, 'overridden');
    }

    case 'set_reviewers': {
      const reviewers = unique(action.reviewers);
      const next = { ...state, reviewers };
      if (from !== 'review' || !state.iteration || state.iteration.closed) return unchanged(next);
      return settle(next, state.iteration, ctx, { action, from, iteration: state.iteration });
    }

    case 'send_back': {
      // Tasks not finished yet (todo, in progress, edit) will be done again anyway.
      if (from !== 'done' && from !== 'review') return unchanged(state);
      const transition: Omit<TTransition, 'iteration'> = { action, from };
      if (action.comment !== undefined) transition.comment = action.comment;
      return move(state, 'edit', transition, 'overridden');
    }
  }
}

/** A task is ready when every predecessor stage's task is done; with none (fed by the start), at once. */
export function isReady(predecessorStatuses: readonly TTaskStatus[]): boolean {
  return predecessorStatuses.every((status) => status === 'done');
}

/**
 * Whether a task shows the Ready mark: ready and waiting for someone to take it up — to do, or sent
 * back to edit. Work in progress, in review or done has been taken up already; a Ready mark there
 * read as a second status (issue 39, item 12).
 */
export function showsReady(status: TTaskStatus, ready: boolean): boolean {
  return ready && (status === 'todo' || status === 'edit');
}

/** Overdue is computed at read time, never stored: a due date strictly before now, and not done. */
export function isOverdue(dueDate: TMoment | null | undefined, status: TTaskStatus, now: TMoment): boolean {
  return dueDate != null && status !== 'done' && toMs(dueDate) < toMs(now);
}

/** A stage's defaults: a due date is either a number of days after the task becomes ready, or fixed. */
export type TStageDefaults = {
  assignees: number[];
  reviewers: number[];
  dueDays: number | null;
  dueDate: TMoment | null;
};

/** A task's own values, the flag that chooses, and when it became ready (null while not ready). */
export type TTaskAssignment = {
  useStageDefaults: boolean;
  assignees: number[];
  reviewers: number[];
  dueDate: TMoment | null;
  readyAt: TMoment | null;
};

export type TEffectiveAssignment = { assignees: number[]; reviewers: number[]; dueDate: Date | null };

/**
 * The assignees, reviewers and due date that apply. With stage defaults, a fixed default date wins
 * over a number of days; days count from `readyAt` in whole 24-hour days, so a task that is not
 * ready yet has no due date.
 */
export function effectiveAssignment(task: TTaskAssignment, stage: TStageDefaults): TEffectiveAssignment {
  if (!task.useStageDefaults) {
    return {
      assignees: [...task.assignees],
      reviewers: [...task.reviewers],
      dueDate: task.dueDate == null ? null : new Date(toMs(task.dueDate)),
    };
  }
  let dueDate: Date | null = null;
  if (stage.dueDate != null) dueDate = new Date(toMs(stage.dueDate));
  else if (stage.dueDays != null && task.readyAt != null)
    dueDate = new Date(toMs(task.readyAt) + stage.dueDays * DayMs);
  return { assignees: [...stage.assignees], reviewers: [...stage.reviewers], dueDate };
}

export type TTaskCounters = Record<TTaskStatus, number> & { overdue: number };

/** A pipeline's `task_counters`: tasks per status, plus the overdue ones (counted in their status too). */
export function taskCounters(
  tasks: Iterable<{ status: TTaskStatus; dueDate: TMoment | null }>,
  now: TMoment,
): TTaskCounters {
  const counters: TTaskCounters = { todo: 0, in_progress: 0, review: 0, edit: 0, done: 0, overdue: 0 };
  const nowMs = toMs(now);
  for (const task of tasks) {
    counters[task.status] += 1;
    if (isOverdue(task.dueDate, task.status, nowMs)) counters.overdue += 1;
  }
  return counters;
}
