/**
 * The words of the task engine (docs/rules.md §Tasks): its statuses, review modes, actions, round
 * outcomes and refusals, with their labels and messages (i18n keys). One list each: the zod schemas,
 * the database's CHECK constraints and column types, and the engine all read these.
 */

export const TaskStatuses = ['todo', 'in_progress', 'review', 'edit', 'done'] as const;
export type TTaskStatus = (typeof TaskStatuses)[number];

export const ReviewModes = ['each_immediate', 'each_wait', 'any'] as const;
export type TReviewMode = (typeof ReviewModes)[number];

/** Everything that can happen to a task, as its history records it (`action`). */
export const TaskActionTypes = [
  'start',
  'submit',
  'accept',
  'reject',
  'set_status',
  'set_reviewers',
  'send_back',
] as const;
export type TTaskActionType = (typeof TaskActionTypes)[number];

/**
 * What a task's history records: the engine's actions, and `log_time`, a person's time on the task
 * for one day changed (docs/time.md). Not an engine action, so not in `TaskActionTypes`.
 */
export const HistoryActions = [...TaskActionTypes, 'log_time'] as const;
export type THistoryAction = (typeof HistoryActions)[number];

/**
 * How a round closed: by its reviewers (`done`, `edit`), by a rejection that sent predecessor
 * stages back (`returned`), or by a status set over it (`overridden`: a Member's status change, or
 * the task itself being sent back by a successor's rejection).
 */
export const IterationOutcomes = ['done', 'edit', 'returned', 'overridden'] as const;
export type TIterationOutcome = (typeof IterationOutcomes)[number];

export type TTaskErrorCode =
  'invalid_transition' | 'not_a_reviewer' | 'already_reacted' | 'return_to_required' | 'return_to_not_predecessor';

/**
 * The HTTP status of each refusal. A transition that is no longer possible (a second reviewer
 * reacting after the first closed the round) is a conflict with the current state, so 409.
 */
export const TaskErrorStatus: Record<TTaskErrorCode, 400 | 403 | 409> = {
  invalid_transition: 409,
  not_a_reviewer: 403,
  already_reacted: 409,
  return_to_required: 400,
  return_to_not_predecessor: 400,
};

/** The English source message (an i18n key) of each refusal. */
export const TaskErrorMessages: Record<TTaskErrorCode, string> = {
  invalid_transition: 'This action is not possible in the current status of the task.',
  not_a_reviewer: 'Only a reviewer of the task can accept or reject it.',
  already_reacted: 'You have already reacted in this review round.',
  return_to_required: 'Choose the stages to send for revision.',
  return_to_not_predecessor: 'Only a previous stage can be sent for revision.',
};

/**
 * Status labels (i18n keys). The Edit status has a key of its own, i18next's context form of 'Edit'
 * (`t('Edit', { context: 'status' })` reads it too), so that it can differ from the Edit action in
 * other languages (docs/decisions.md, entry 62).
 */
export const TaskStatusLabels: Record<TTaskStatus, string> = {
  todo: 'To do',
  in_progress: 'Work in progress',
  review: 'Review',
  edit: 'Edit_status',
  done: 'Done',
};

/** Review mode labels of docs/rules.md §Tasks (i18n keys). */
export const ReviewModeLabels: Record<TReviewMode, string> = {
  each_immediate: 'Each reviewer, immediate',
  each_wait: 'Each reviewer, wait',
  any: 'Any reviewer',
};
