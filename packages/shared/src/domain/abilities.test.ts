import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memberAbilities, taskAbilities, workspaceAbilities } from './abilities';
import { canSkipReview, isSelfReview } from './review-rules';
import { can, canLogTime, canReview, canWork, checkRemoval, checkRoleChange, Roles, type TRole } from './permissions';
import {
  applyTaskAction,
  ReviewModes,
  TaskStatuses,
  type TIteration,
  type TStageRules,
  type TTaskContext,
  type TTaskState,
} from './tasks';

/**
 * Each ability against what the server does with the action: the policy (`canWork`, `canReview`,
 * `can`) and then the engine (`applyTaskAction`). An ability is true exactly when both accept.
 */

const ids = fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { maxLength: 4 });
const rules: fc.Arbitrary<TStageRules> = fc.record({
  todoEnabled: fc.boolean(),
  reviewMode: fc.constantFrom(...ReviewModes),
  skipReviewIfNoReviewers: fc.boolean(),
  acceptEditAsDone: fc.boolean(),
});
const iteration: fc.Arbitrary<TIteration | null> = fc.option(
  fc.record({
    number: fc.integer({ min: 1, max: 3 }),
    acceptedBy: ids,
    rejectedBy: ids,
    returnTo: fc.constant([]),
    closed: fc.boolean(),
    outcome: fc.constant(null),
  }),
);
const state: fc.Arbitrary<TTaskState> = fc.record({
  status: fc.constantFrom(...TaskStatuses),
  reviewers: ids,
  iteration,
});
const role = fc.option(fc.constantFrom(...Roles), { nil: null });
const case_ = fc.record({
  role,
  actor: fc.integer({ min: 1, max: 6 }),
  assignees: ids,
  state,
  rules,
  predecessors: fc.uniqueArray(fc.integer({ min: 100, max: 103 }), { maxLength: 3 }),
  allowSelfReview: fc.boolean(),
  enforceReview: fc.boolean(),
});

describe('taskAbilities', () => {
  it('is true exactly when the policy and the engine accept the action', () => {
    fc.assert(
      fc.property(case_, ({ role, actor, assignees, state, rules, predecessors, allowSelfReview, enforceReview }) => {
        const able = taskAbilities({ role, actor, assignees, state, rules, allowSelfReview, enforceReview });
        const ctx: TTaskContext = { rules, predecessors };
        const engine = (action: Parameters<typeof applyTaskAction>[1]) => applyTaskAction(state, action, ctx);
        const works = canWork(role, assignees.includes(actor));
        // The server's order (tasks policy): no self-review first, then "is a reviewer".
        const reviews = !isSelfReview(actor, assignees, allowSelfReview) && canReview(state.reviewers.includes(actor));

        expect(able.start).toBe(works && engine({ type: 'start', actor }).ok);
        expect(able.submit).toBe(works && engine({ type: 'submit', actor }).ok);
        // Reject with an explicit choice of stages to redo ([]: this task), as the dialog sends it.
        expect(able.review).toBe(reviews && engine({ type: 'accept', actor }).ok);
        expect(able.review).toBe(reviews && engine({ type: 'reject', actor, returnTo: [] }).ok);
        const accepted = engine({ type: 'accept', actor });
        if (able.review && accepted.ok) {
          const to = accepted.state.status;
          expect(able.accept_outcome).toBe(to === 'review' ? 'wait' : to === 'done' ? 'done' : 'edit');
        } else expect(able.accept_outcome).toBeNull();
        const refusal = engine({ type: 'accept', actor });
        const reviewer = canReview(state.reviewers.includes(actor));
        const self = isSelfReview(actor, assignees, allowSelfReview);
        expect(able.self_review).toBe(self && reviewer && engine({ type: 'accept', actor }).ok);
        expect(able.reacted).toBe(reviewer && !refusal.ok && refusal.error === 'already_reacted');
        for (const status of TaskStatuses) {
          // Done by hand skips the review: an enforcing stage leaves it to Admins (the tasks' PATCH).
          const skips = status === 'done' && state.status !== 'done' && !canSkipReview(role, enforceReview);
          const allowed = can(role, 'task', 'set_status') && engine({ type: 'set_status', status, actor }).ok && !skips;
          expect(able.statuses.includes(status)).toBe(allowed);
        }
        expect(able.update).toBe(can(role, 'task', 'update'));
        expect(able.log_time).toBe(canLogTime(role, assignees.includes(actor) || state.reviewers.includes(actor)));
        expect(able.self_reviewer).toBe(
          can(role, 'task', 'update') && (canSkipReview(role, enforceReview) || !assignees.includes(actor)),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('never offers To do on a stage where it is disabled', () => {
    const rules: TStageRules = {
      todoEnabled: false,
      reviewMode: 'any',
      skipReviewIfNoReviewers: true,
      acceptEditAsDone: false,
    };
    const able = taskAbilities({
      role: 'member',
      actor: 1,
      assignees: [],
      state: { status: 'in_progress', reviewers: [], iteration: null },
      rules,
    });
    expect(able.statuses).toEqual(['in_progress', 'review', 'edit', 'done']);
  });

  it('lets a queue member take an open task, and an assignee remind once an hour in an open round', () => {
    const rules: TStageRules = {
      todoEnabled: true,
      reviewMode: 'any',
      skipReviewIfNoReviewers: true,
      acceptEditAsDone: false,
    };
    const round = { number: 1, acceptedBy: [], rejectedBy: [], returnTo: [], closed: false, outcome: null };
    const now = new Date('2026-01-01T12:00:00Z');
    const base = { role: 'member' as const, actor: 1, assignees: [1], rules, now };
    const inReview = { status: 'review' as const, reviewers: [2], iteration: round };
    expect(taskAbilities({ ...base, state: inReview, queueMember: true }).take).toBe(true);
    expect(taskAbilities({ ...base, state: inReview }).take).toBe(false);
    expect(taskAbilities({ ...base, state: { ...inReview, status: 'done' }, queueMember: true }).take).toBe(false);
    expect(taskAbilities({ ...base, state: inReview, remindedAt: null }).remind).toBe(true);
    const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
    expect(taskAbilities({ ...base, state: inReview, remindedAt: minutesAgo(30) }).remind).toBe(false);
    expect(taskAbilities({ ...base, state: inReview, remindedAt: minutesAgo(61) }).remind).toBe(true);
    expect(taskAbilities({ ...base, actor: 2, state: inReview }).remind).toBe(false);
    expect(taskAbilities({ ...base, state: { ...inReview, iteration: { ...round, closed: true } } }).remind).toBe(
      false,
    );
  });
});

describe('workspace and member abilities', () => {
  it('follow the permission table, and the owner cannot leave', () => {
    for (const r of Roles) {
      const able = workspaceAbilities(r);
      expect(able.invite).toBe(can(r, 'workspace', 'invite'));
      expect(able.delete).toBe(can(r, 'workspace', 'delete'));
      expect(able.leave).toBe(r !== 'owner');
      expect(able.projects.create).toBe(can(r, 'project', 'create'));
      expect(able.units.delete).toBe(can(r, 'unit', 'delete'));
    }
  });

  it('never let anyone change the owner’s role or remove the owner', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Roles), fc.constantFrom(...Roles), (actor: TRole, target: TRole) => {
        const able = memberAbilities(actor, target);
        expect(able.change_role).toBe(checkRoleChange(actor, target, 'guest') === null);
        expect(able.remove).toBe(checkRemoval(actor, target) === null);
        if (target === 'owner') expect(able).toEqual({ change_role: false, remove: false });
      }),
    );
  });
});
