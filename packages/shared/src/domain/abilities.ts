import { can, canLogTime, canReview, canWork, checkRemoval, checkRoleChange, type TRole } from './permissions';
import { canRemind, canSkipReview, isSelfReview, type TReviewRules } from './review-rules';
import {
  applyTaskAction,
  availableStatuses,
  TaskStatuses,
  type TStageRules,
  type TTaskState,
  type TTaskStatus,
} from './tasks';

/**
 * What the caller may do, computed once on the server and sent beside each record (docs/architecture.md,
 * "Abilities"): the web app shows a button exactly when its ability is true and never re-derives a
 * permission or an engine transition from a role or a status.
 */

/** A task's actions for one caller: the policy (who) and the engine (what the state allows), together. */
export type TTaskAbilities = {
  start: boolean;
  submit: boolean;
  /** Accept or reject: a reviewer of the open round who has not reacted in it yet. */
  review: boolean;
  /** The caller reviews this open round but is its assignee, and the stage forbids self-review. */
  self_review: boolean;
  /** The caller, a current reviewer, already accepted or rejected in the open round. */
  reacted: boolean;
  /**
   * What the caller's accept would do, for the accept dialog's hint: close the round as Done, send
   * the task to Edit (another reviewer rejected), or wait for the others; null without `review`.
   */
  accept_outcome: 'done' | 'edit' | 'wait' | null;
  /** The statuses the caller may set (the current one included); empty when they may set none. */
  statuses: TTaskStatus[];
  /** Change assignees, reviewers, due date, estimate and "use stage defaults". */
  update: boolean;
  /** Log time on the task and run a timer on it (`canLogTime`, docs/time.md). Optional in the type only. */
  log_time?: boolean;
  /**
   * Name themself a reviewer of this task: false for an assignee below Admin on a stage that
   * enforces its review (docs/review-rules.md, "Skipping review"), and without `update`.
   */
  self_reviewer: boolean;
  /** Take it from a team queue: a member of one of its assignee teams, while it is not done. */
  take: boolean;
  /** Remind the reviewers who have not reacted: an assignee, in an open round, once an hour. */
  remind: boolean;
};

export type TTaskAbilityInput = {
  role: TRole | null;
  /** The caller's user id. */
  actor: number;
  /** The effective assignees (`effectiveAssignment`). */
  assignees: readonly number[];
  state: TTaskState;
  rules: TStageRules;
  /** The stage's required approvals and team rules (docs/review-rules.md); absent: the mode decides. */
  reviewRules?: TReviewRules;
  /** The stage lets an assignee review their own task. */
  allowSelfReview?: boolean;
  /** The stage leaves skipping its review to Admins (docs/review-rules.md, "Skipping review"). */
  enforceReview?: boolean;
  /** The caller is a member of one of the task's assignee teams (docs/review-rules.md, team queues). */
  queueMember?: boolean;
  /** When an assignee last reminded the reviewers, and the time now (reminders: once an hour). */
  remindedAt?: Date | null;
  now?: Date;
};

/**
 * A task's abilities (docs/rules.md §Tasks and §Roles). The property tests check each one against
 * `applyTaskAction` and the policy: true exactly when the server would accept the action.
 */
export function taskAbilities(input: TTaskAbilityInput): TTaskAbilities {
  const { role, actor, assignees, state, rules } = input;
  const { status, iteration } = state;
  const work = canWork(role, assignees.includes(actor));
  const reviewer = state.reviewers.includes(actor);
  const open = status === 'review' && iteration !== null && !iteration.closed;
  const reacted = reviewer && open && (iteration.acceptedBy.includes(actor) || iteration.rejectedBy.includes(actor));
  // No self-review (docs/review-rules.md): an assignee may not review unless the stage allows it.
  const self = isSelfReview(actor, assignees, input.allowSelfReview ?? false);
  const review = !self && canReview(reviewer) && open && !reacted;
  const skip = canSkipReview(role, input.enforceReview ?? false);
  return {
    start: work && status === 'todo',
    submit: work && (status === 'in_progress' || status === 'edit'),
    review,
    self_review: self && reviewer && open && !reacted,
    reacted,
    accept_outcome: review ? acceptOutcome(state, actor, rules, input.reviewRules) : null,
    // The current status stays listed even where the stage no longer offers it (To do switched off);
    // Done set by hand skips the review, which an enforcing stage leaves to Admins.
    statuses: can(role, 'task', 'set_status')
      ? TaskStatuses.filter((s) => s === status || (availableStatuses(rules).includes(s) && (s !== 'done' || skip)))
      : [],
    update: can(role, 'task', 'update'),
    self_reviewer: can(role, 'task', 'update') && (skip || !assignees.includes(actor)),
    take: (input.queueMember ?? false) && status !== 'done',
    remind: open && assignees.includes(actor) && canRemind(input.remindedAt ?? null, input.now ?? new Date()),
    log_time: canLogTime(role, assignees.includes(actor) || reviewer),
  };
}

function acceptOutcome(
  state: TTaskState,
  actor: number,
  rules: TStageRules,
  reviewRules: TReviewRules | undefined,
): 'done' | 'edit' | 'wait' {
  const ctx = reviewRules ? { rules, predecessors: [], reviewRules } : { rules, predecessors: [] };
  const result = applyTaskAction(state, { type: 'accept', actor }, ctx);
  if (!result.ok || result.state.status === 'review') return 'wait';
  return result.state.status === 'done' ? 'done' : 'edit';
}

/** Create, edit and delete records of one kind (projects, pipelines or units). */
export type TRecordAbilities = { create: boolean; update: boolean; delete: boolean };

/**
 * What a member may do in a workspace and with everything in it. Abilities that follow from the role
 * alone are the same for every project, pipeline and unit of the workspace, so they travel once, here
 * (docs/decisions.md, entry 77); those that depend on a record's state travel with it (tasks).
 */
export type TWorkspaceAbilities = {
  update: boolean;
  invite: boolean;
  manage_link: boolean;
  change_roles: boolean;
  remove_users: boolean;
  delegate: boolean;
  delete: boolean;
  /** Everyone but the owner, who must hand the workspace over first. */
  leave: boolean;
  manage_webhooks: boolean;
  share_views: boolean;
  view_teams: boolean;
  manage_teams: boolean;
  comment: boolean;
  moderate_comments: boolean;
  /** See and change everyone's time: the timesheet's team view (docs/time.md). Optional in the type only. */
  moderate_time?: boolean;
  /** Define, change and archive a project's custom fields (docs/custom-fields.md). Optional in the type only. */
  manage_fields?: boolean;
  /** Read the workspace's audit log (docs/history-and-audit.md). Optional in the type only. */
  view_audit?: boolean;
  /** Attach files to tasks and units (docs/files.md). */
  attach: boolean;
  projects: TRecordAbilities;
  pipelines: TRecordAbilities;
  units: TRecordAbilities;
};

const recordAbilities = (role: TRole, resource: 'project' | 'pipeline' | 'unit'): TRecordAbilities => ({
  create: can(role, resource, 'create'),
  update: can(role, resource, 'update'),
  delete: can(role, resource, 'delete'),
});

export function workspaceAbilities(role: TRole): TWorkspaceAbilities {
  return {
    update: can(role, 'workspace', 'update'),
    invite: can(role, 'workspace', 'invite'),
    manage_link: can(role, 'workspace', 'manage_link'),
    change_roles: can(role, 'workspace', 'change_roles'),
    remove_users: can(role, 'workspace', 'remove_users'),
    delegate: can(role, 'workspace', 'delegate'),
    delete: can(role, 'workspace', 'delete'),
    leave: role !== 'owner' && can(role, 'workspace', 'leave'),
    manage_webhooks: can(role, 'webhook', 'manage'),
    share_views: can(role, 'view', 'share'),
    view_teams: can(role, 'team', 'view'),
    manage_teams: can(role, 'team', 'manage'),
    comment: can(role, 'comment', 'create'),
    moderate_comments: can(role, 'comment', 'moderate'),
    moderate_time: can(role, 'time', 'moderate'),
    manage_fields: can(role, 'field', 'manage'),
    view_audit: can(role, 'audit', 'view'),
    attach: can(role, 'attachment', 'create'),
    projects: recordAbilities(role, 'project'),
    pipelines: recordAbilities(role, 'pipeline'),
    units: recordAbilities(role, 'unit'),
  };
}

/** What the caller may do to one member of the team list: change their role, remove them. */
export type TMemberAbilities = { change_role: boolean; remove: boolean };

export function memberAbilities(actor: TRole, target: TRole): TMemberAbilities {
  return {
    change_role: checkRoleChange(actor, target, 'guest') === null,
    remove: checkRemoval(actor, target) === null,
  };
}
