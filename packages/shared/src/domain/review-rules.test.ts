import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canRemind,
  canSkipReview,
  isSelfReview,
  noReviewRules,
  reviewBypassRoles,
  ruleProgress,
  skipsReview,
  type TReviewRules,
} from './review-rules';
import { applyTaskAction, ReviewModes, type TReviewMode, type TTaskContext, type TTaskState } from './tasks';

/**
 * Review rules (docs/review-rules.md) through the real engine (`applyTaskAction`), against a
 * reference model written from the rule table as plainly as possible: for every sequence of
 * reactions, in every mode and rule set, the final status and the recorded reactions match.
 */

type TReaction = { actor: number; accept: boolean };
type TStatus = 'review' | 'done' | 'edit';

const mode = fc.constantFrom(...ReviewModes);
const reviewerSet = fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 });
const reactions = fc.array(fc.record({ actor: fc.integer({ min: 1, max: 10 }), accept: fc.boolean() }), {
  maxLength: 25,
});
/** Up to three teams of ids 1..10 (members may be reviewers or not), each with a required count. */
const rulesArb: fc.Arbitrary<TReviewRules> = fc.record({
  requiredApprovals: fc.option(fc.integer({ min: 1, max: 7 }), { nil: null }),
  teamRules: fc.array(
    fc.record({
      team: fc.integer({ min: 1, max: 1000 }),
      required: fc.integer({ min: 1, max: 3 }),
      members: fc.uniqueArray(fc.integer({ min: 1, max: 10 }), { maxLength: 5 }),
    }),
    { maxLength: 3 },
  ),
});

/**
 * The model: walk the reactions; a reaction counts when it is a current reviewer's first and the
 * round is open. After each, decide:
 * - with no rules, the mode table of docs/rules.md §Tasks;
 * - with rules: `any`/`each_immediate` → Edit on a rejection; every mode → Done when the total
 *   (null: all reviewers in each_*, 1 in any) and every team's count of approvals are reached;
 *   `each_wait` → Edit when nobody is left to react, or when even all the rest accepting would not
 *   reach some rule.
 */
function model(reviewMode: TReviewMode, reviewers: number[], rules: TReviewRules, sequence: TReaction[]) {
  const verdicts = new Map<number, boolean>();
  let status: TStatus = 'review';
  for (const { actor, accept } of sequence) {
    if (status !== 'review' || !reviewers.includes(actor) || verdicts.has(actor)) continue;
    verdicts.set(actor, accept);
    const approvers = reviewers.filter((r) => verdicts.get(r) === true);
    const rejecters = reviewers.filter((r) => verdicts.get(r) === false);
    const waiting = reviewers.filter((r) => !verdicts.has(r));
    const noRules = rules.requiredApprovals === null && rules.teamRules.length === 0;
    if (noRules) {
      if (reviewMode === 'any') status = accept ? 'done' : 'edit';
      else if (reviewMode === 'each_immediate') status = !accept ? 'edit' : waiting.length === 0 ? 'done' : 'review';
      else if (waiting.length === 0) status = rejecters.length > 0 ? 'edit' : 'done';
      continue;
    }
    const total = rules.requiredApprovals ?? (reviewMode === 'any' ? 1 : reviewers.length);
    const inTeam = (list: number[], members: readonly number[]) => list.filter((id) => members.includes(id)).length;
    const met =
      approvers.length >= total && rules.teamRules.every((rule) => inTeam(approvers, rule.members) >= rule.required);
    if (reviewMode !== 'each_wait') {
      if (!accept) status = 'edit';
      else if (met) status = 'done';
      continue;
    }
    if (met) status = 'done';
    else if (waiting.length === 0) status = 'edit';
    else {
      const hopeless =
        approvers.length + waiting.length < total ||
        rules.teamRules.some((rule) => inTeam(approvers, rule.members) + inTeam(waiting, rule.members) < rule.required);
      if (hopeless) status = 'edit';
    }
  }
  return { status, counted: verdicts.size };
}

const reviewState = (reviewers: number[]): TTaskState => ({
  status: 'review',
  reviewers,
  iteration: { number: 1, acceptedBy: [], rejectedBy: [], returnTo: [], closed: false, outcome: null },
});

function run(reviewMode: TReviewMode, reviewers: number[], rules: TReviewRules | undefined, sequence: TReaction[]) {
  const context: TTaskContext = {
    rules: { todoEnabled: true, reviewMode, skipReviewIfNoReviewers: false, acceptEditAsDone: false },
    predecessors: [],
    ...(rules ? { reviewRules: rules } : {}),
  };
  let state = reviewState(reviewers);
  for (const { actor, accept } of sequence) {
    const result = applyTaskAction(state, accept ? { type: 'accept', actor } : { type: 'reject', actor }, context);
    if (result.ok) state = result.state;
  }
  return state;
}

describe('review rules (property)', () => {
  it('every sequence of reactions, in every mode and rule set, ends as the model says', () => {
    fc.assert(
      fc.property(mode, reviewerSet, rulesArb, reactions, (reviewMode, reviewers, rules, sequence) => {
        const state = run(reviewMode, reviewers, rules, sequence);
        const expected = model(reviewMode, reviewers, rules, sequence);
        expect(state.status).toBe(expected.status);
        const iteration = state.iteration!;
        expect(iteration.acceptedBy.length + iteration.rejectedBy.length).toBe(expected.counted);
        expect(iteration.closed).toBe(expected.status !== 'review');
        // Done never leaves a rule unmet.
        if (state.status === 'done')
          expect(ruleProgress(reviewMode, reviewers, iteration, rules).every((r) => r.met)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('empty rules change nothing: the engine with them equals the engine without', () => {
    fc.assert(
      fc.property(mode, reviewerSet, reactions, (reviewMode, reviewers, sequence) => {
        expect(run(reviewMode, reviewers, noReviewRules, sequence)).toEqual(
          run(reviewMode, reviewers, undefined, sequence),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('"1 from a team and 2 in total": a second approval outside the team is not enough', () => {
    const rules: TReviewRules = { requiredApprovals: 2, teamRules: [{ team: 9, required: 1, members: [3] }] };
    const state = run('each_immediate', [1, 2, 3], rules, [
      { actor: 1, accept: true },
      { actor: 2, accept: true },
    ]);
    expect(state.status).toBe('review');
    expect(ruleProgress('each_immediate', [1, 2, 3], state.iteration!, rules)).toEqual([
      { team: 9, approved: 0, required: 1, met: false },
      { team: null, approved: 2, required: 2, met: true },
    ]);
    expect(
      run('each_immediate', [1, 2, 3], rules, [
        { actor: 3, accept: true },
        { actor: 1, accept: true },
      ]).status,
    ).toBe('done');
  });

  it('each_wait closes as soon as the rules can no longer be met', () => {
    const rules: TReviewRules = { requiredApprovals: 2, teamRules: [] };
    expect(run('each_wait', [1, 2, 3], rules, [{ actor: 1, accept: false }]).status).toBe('review');
    expect(
      run('each_wait', [1, 2, 3], rules, [
        { actor: 1, accept: false },
        { actor: 2, accept: false },
      ]).status,
    ).toBe('edit');
  });
});

describe('self-review and reminders', () => {
  it('refuses an assignee unless the stage allows it', () => {
    expect(isSelfReview(1, [1, 2], false)).toBe(true);
    expect(isSelfReview(1, [1, 2], true)).toBe(false);
    expect(isSelfReview(3, [1, 2], false)).toBe(false);
  });

  it('allows a reminder at most once an hour', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    expect(canRemind(null, now)).toBe(true);
    expect(canRemind(new Date('2026-01-01T11:00:01Z'), now)).toBe(false);
    expect(canRemind(new Date('2026-01-01T11:00:00Z'), now)).toBe(true);
  });
});

describe('skipping review (docs/review-rules.md)', () => {
  it('is for Members and above, and only Admins and the owner where the stage enforces its review', () => {
    expect(reviewBypassRoles(false)).toEqual(['member', 'admin', 'owner']);
    expect(reviewBypassRoles(true)).toEqual(['admin', 'owner']);
    expect(canSkipReview(null, false)).toBe(false);
  });

  it('marks Done set by hand from another status, and nothing else', () => {
    expect(skipsReview({ action: 'set_status', from: 'review', to: 'done' })).toBe(true);
    expect(skipsReview({ action: 'set_status', from: 'edit', to: 'done' })).toBe(true);
    expect(skipsReview({ action: 'set_status', from: 'done', to: 'done' })).toBe(false);
    expect(skipsReview({ action: 'accept', from: 'review', to: 'done' })).toBe(false);
    expect(skipsReview({ action: 'set_status', from: 'review', to: 'edit' })).toBe(false);
  });
});
