/**
 * Review rules of a stage (docs/review-rules.md): how many approvals a round needs in total
 * (`required_approvals`) and from which teams (`team_rules`), beside the stage's review mode. Pure
 * and shared: the task engine (`tasks.ts`) asks `ruleDecision` when a stage has rules, the server
 * presents `ruleProgress`, and both refuse self-review with `isSelfReview`.
 *
 * This module imports nothing from `tasks.ts` (the engine imports it), so its types are structural.
 *
 * With no rules (`required_approvals` null and no team rule) the engine keeps the three modes of
 * docs/rules.md §Tasks exactly; this module is not consulted. With rules:
 * - every mode: Done needs every rule met (the total and each team's count);
 * - `any` and `each_immediate`: the first rejection sends the task to Edit;
 * - `each_wait`: the round closes when the rules are met (Done), when every reviewer has reacted
 *   without meeting them (Edit), or as soon as they can no longer be met by those who have not
 *   reacted yet (Edit).
 * Only current reviewers' reactions count; a round with no reviewers decides nothing.
 */

import { atLeast, can, Roles, type TRole } from './permissions';

export type TRuleMode = 'each_immediate' | 'each_wait' | 'any';

/** A team rule with the team's members as they count for this task (the assignees left out). */
export type TTeamRule = { team: number; required: number; members: readonly number[] };

/** `requiredApprovals` null: every reviewer in the `each_*` modes, one in `any`. */
export type TReviewRules = { requiredApprovals: number | null; teamRules: readonly TTeamRule[] };

export type TRuleReactions = { acceptedBy: readonly number[]; rejectedBy: readonly number[] };

/** One rule's progress: `team` null is the total. */
export type TRuleProgress = { team: number | null; approved: number; required: number; met: boolean };

export const noReviewRules: TReviewRules = { requiredApprovals: null, teamRules: [] };

/** Does the stage have rules beyond its mode? Without them the engine's three modes decide alone. */
export function hasReviewRules(rules: TReviewRules | undefined): rules is TReviewRules {
  return rules !== undefined && (rules.requiredApprovals !== null || rules.teamRules.length > 0);
}

/** The total number of approvals a round needs with `reviewerCount` current reviewers. */
export function requiredTotal(mode: TRuleMode, rules: TReviewRules, reviewerCount: number): number {
  return rules.requiredApprovals ?? (mode === 'any' ? 1 : reviewerCount);
}

type Counted = { current: Set<number>; accepted: Set<number>; rejected: Set<number> };

function count(reviewers: readonly number[], reactions: TRuleReactions): Counted {
  const current = new Set(reviewers);
  const accepted = new Set(reactions.acceptedBy.filter((id) => current.has(id)));
  const rejected = new Set(reactions.rejectedBy.filter((id) => current.has(id) && !accepted.has(id)));
  return { current, accepted, rejected };
}

const sizeIn = (ids: Iterable<number>, within: ReadonlySet<number>) => [...ids].filter((id) => within.has(id)).length;

/** Each team rule's progress, then the total's: what the task screen shows ("Leads 1/1 · total 1/2"). */
export function ruleProgress(
  mode: TRuleMode,
  reviewers: readonly number[],
  reactions: TRuleReactions,
  rules: TReviewRules,
): TRuleProgress[] {
  const { current, accepted } = count(reviewers, reactions);
  const rows: TRuleProgress[] = rules.teamRules.map((rule) => {
    const approved = sizeIn(rule.members, accepted);
    return { team: rule.team, approved, required: rule.required, met: approved >= rule.required };
  });
  const required = requiredTotal(mode, rules, current.size);
  rows.push({ team: null, approved: accepted.size, required, met: accepted.size >= required });
  return rows;
}

/**
 * The decision of an open round under a mode and rules, or null while it stays open (see the
 * module's comment). Only called when `hasReviewRules`.
 */
export function ruleDecision(
  mode: TRuleMode,
  reviewers: readonly number[],
  reactions: TRuleReactions,
  rules: TReviewRules,
): 'done' | 'edit' | null {
  const { current, accepted, rejected } = count(reviewers, reactions);
  if (current.size === 0) return null;
  const progress = ruleProgress(mode, reviewers, reactions, rules);
  if (mode !== 'each_wait' && rejected.size > 0) return 'edit';
  if (progress.every((rule) => rule.met)) return 'done';
  if (mode !== 'each_wait') return null;
  const pending = new Set([...current].filter((id) => !accepted.has(id) && !rejected.has(id)));
  if (pending.size === 0) return 'edit';
  const reachable = progress.every((rule) => {
    const team = rule.team === null ? null : rules.teamRules.find((r) => r.team === rule.team);
    const possible = team ? sizeIn(team.members, pending) : pending.size;
    return rule.approved + possible >= rule.required;
  });
  return reachable ? null : 'edit';
}

/**
 * Self-review: an assignee of the task may not accept or reject it unless the stage allows it
 * (`allow_self_review`, off by default).
 */
export function isSelfReview(actor: number, assignees: readonly number[], allowSelfReview: boolean): boolean {
  return !allowSelfReview && assignees.includes(actor);
}

/**
 * Skipping review (docs/review-rules.md): Members and above may set any status (docs/rules.md
 * §Roles), Done included, which ends a task's review without its reviewers. A stage that enforces
 * its review (`enforce_review`) leaves that to Admins and the owner.
 */
export function canSkipReview(role: TRole | null | undefined, enforceReview: boolean): boolean {
  if (!role || !can(role, 'task', 'set_status')) return false;
  return !enforceReview || atLeast(role, 'admin');
}

/** The roles that can skip a stage's review, as its review rules' section lists them. */
export function reviewBypassRoles(enforceReview: boolean): TRole[] {
  return Roles.filter((role) => canSkipReview(role, enforceReview));
}

/** Does a history entry skip the review? Done set by hand (`set_status`) from any other status. */
export function skipsReview(entry: { action: string; from: string | null; to: string | null }): boolean {
  return entry.action === 'set_status' && entry.to === 'done' && entry.from !== 'done';
}

/** The English source messages (i18n keys) of the refusals of this module's rules. */
export const ReviewRuleMessages = {
  selfReview: 'You are an assignee of this task: you cannot review your own work.',
  remindTooSoon: 'Reviewers were reminded less than an hour ago. Try again later.',
  remindNotInReview: 'Only a task in review can have its reviewers reminded.',
  remindNotAssignee: 'Only an assignee of the task can remind its reviewers.',
  enforcedDone: 'This stage enforces its review: only Admins can set a task to Done without it.',
  enforcedSelfReviewer:
    'This stage enforces its review: only Admins can make themselves a reviewer of a task they are assigned to.',
} as const;

/** How often an assignee may remind a task's reviewers. */
export const RemindIntervalMs = 60 * 60 * 1000;

/** May the reviewers be reminded now, given the last reminder? */
export function canRemind(lastReminder: Date | null, now: Date): boolean {
  return lastReminder === null || now.getTime() - lastReminder.getTime() >= RemindIntervalMs;
}
