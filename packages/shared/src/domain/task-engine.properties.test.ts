import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyTaskAction,
  initialStatus,
  ReviewModes,
  TaskStatuses,
  type TReviewMode,
  type TStageRules,
  type TTaskAction,
  type TTaskContext,
  type TTaskState,
  type TTaskStatus,
} from './tasks';

/**
 * Property tests of the engine: random reviewer sets and reaction orders in each review mode against
 * a reference model written from the mode table of docs/rules.md §Tasks, and invariants over random
 * sequences of any action.
 */

const reviewerSet = fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 5 });
/** Reactions by anyone, reviewers or not (ids up to 10), possibly repeated. */
const reactions = fc.array(fc.record({ actor: fc.integer({ min: 1, max: 10 }), accept: fc.boolean() }), {
  maxLength: 25,
});
const mode = fc.constantFrom(...ReviewModes);

const rulesArb: fc.Arbitrary<TStageRules> = fc.record({
  todoEnabled: fc.boolean(),
  reviewMode: mode,
  skipReviewIfNoReviewers: fc.boolean(),
  acceptEditAsDone: fc.boolean(),
});

type TReaction = { actor: number; accept: boolean };

/**
 * The mode table as plainly as possible: the valid reactions are each reviewer's first, until the
 * round closes. Returns the final status and how many reactions were valid.
 */
function model(reviewMode: TReviewMode, reviewers: number[], sequence: TReaction[]) {
  const reacted = new Map<number, boolean>();
  let status: TTaskStatus = 'review';
  let valid = 0;
  for (const { actor, accept } of sequence) {
    if (status !== 'review' || !reviewers.includes(actor) || reacted.has(actor)) continue;
    reacted.set(actor, accept);
    valid += 1;
    const verdicts = [...reacted.values()];
    const anyReject = verdicts.includes(false);
    if (reviewMode === 'any') status = accept ? 'done' : 'edit';
    else if (reviewMode === 'each_immediate') {
      if (!accept) status = 'edit';
      else if (verdicts.length === reviewers.length && !anyReject) status = 'done';
    } else if (verdicts.length === reviewers.length) status = anyReject ? 'edit' : 'done';
  }
  return { status, valid, reacted };
}

const reviewState = (reviewers: number[]): TTaskState => ({
  status: 'review',
  reviewers,
  iteration: { number: 1, acceptedBy: [], rejectedBy: [], returnTo: [], closed: false, outcome: null },
});

describe('review modes (property)', () => {
  it('end as the mode table says, refuse exactly the invalid reactions, and never double-count', () => {
    fc.assert(
      fc.property(mode, reviewerSet, reactions, (reviewMode, reviewers, sequence) => {
        const context: TTaskContext = {
          rules: { todoEnabled: true, reviewMode, skipReviewIfNoReviewers: false, acceptEditAsDone: false },
          predecessors: [],
        };
        let state = reviewState(reviewers);
        const seen = new Set<number>();
        let historyEntries = 0;
        let statusChanges = 0;
        for (const { actor, accept } of sequence) {
          const before = state;
          const result = applyTaskAction(
            state,
            accept ? { type: 'accept', actor } : { type: 'reject', actor },
            context,
          );
          if (!reviewers.includes(actor)) expect(result).toEqual({ ok: false, error: 'not_a_reviewer' });
          else if (before.status !== 'review') expect(result).toEqual({ ok: false, error: 'invalid_transition' });
          else if (seen.has(actor)) expect(result).toEqual({ ok: false, error: 'already_reacted' });
          if (!result.ok) continue;
          seen.add(actor);
          state = result.state;
          historyEntries += result.history.length;
          expect(result.history).toHaveLength(1);
          const [entry] = result.history;
          expect(entry).toMatchObject({ from: before.status, to: state.status, actor, iteration: 1 });
          if (state.status !== before.status) statusChanges += 1;

          const { acceptedBy, rejectedBy } = state.iteration!;
          const all = [...acceptedBy, ...rejectedBy];
          expect(new Set(all).size).toBe(all.length);
          expect(state.iteration!.closed).toBe(state.status !== 'review');
          expect(TaskStatuses).toContain(state.status);
        }
        const expected = model(reviewMode, reviewers, sequence);
        expect(state.status).toBe(expected.status);
        expect(historyEntries).toBe(expected.valid);
        expect(statusChanges).toBe(expected.status === 'review' ? 0 : 1);
        if (expected.status !== 'review') expect(state.iteration!.outcome).toBe(expected.status);
        expect(state.iteration!.acceptedBy.length + state.iteration!.rejectedBy.length).toBe(expected.valid);
      }),
      { numRuns: 500 },
    );
  });

  it('each_immediate: edit iff a rejection arrived before everyone accepted', () => {
    fc.assert(
      fc.property(
        reviewerSet,
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        fc.integer(),
        (reviewers, verdicts, seed) => {
          // Every reviewer reacts once, in a shuffled order.
          const order = [...reviewers].sort((a, b) => ((a * 7919 + seed) % 13) - ((b * 7919 + seed) % 13));
          const sequence = order.map((actor, i) => ({ actor, accept: verdicts[i % verdicts.length]! }));
          const state = run('each_immediate', reviewers, sequence);
          const firstReject = sequence.findIndex((r) => !r.accept);
          expect(state.status).toBe(firstReject === -1 ? 'done' : 'edit');
          // Reactions after the first rejection are too late and not recorded.
          if (firstReject !== -1)
            expect(state.iteration!.acceptedBy.length + state.iteration!.rejectedBy.length).toBe(firstReject + 1);
        },
      ),
    );
  });

  it('each_wait: closes only after everyone reacted, edit iff any rejected', () => {
    fc.assert(
      fc.property(reviewerSet, fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }), (reviewers, verdicts) => {
        const sequence = reviewers.map((actor, i) => ({ actor, accept: verdicts[i]! }));
        const partial = run('each_wait', reviewers, sequence.slice(0, -1));
        expect(partial.status).toBe('review');
        const state = run('each_wait', reviewers, sequence);
        expect(state.status).toBe(sequence.every((r) => r.accept) ? 'done' : 'edit');
      }),
    );
  });

  it('any: the first reaction decides', () => {
    fc.assert(
      fc.property(reviewerSet, reactions, (reviewers, sequence) => {
        const first = sequence.find((r) => reviewers.includes(r.actor));
        const state = run('any', reviewers, sequence);
        expect(state.status).toBe(first === undefined ? 'review' : first.accept ? 'done' : 'edit');
      }),
    );
  });
});

/** Applies reactions, ignoring refusals (as the server would answer them). */
function run(reviewMode: TReviewMode, reviewers: number[], sequence: TReaction[]): TTaskState {
  const context: TTaskContext = {
    rules: { todoEnabled: true, reviewMode, skipReviewIfNoReviewers: false, acceptEditAsDone: false },
    predecessors: [],
  };
  let state = reviewState(reviewers);
  for (const { actor, accept } of sequence) {
    const result = applyTaskAction(state, accept ? { type: 'accept', actor } : { type: 'reject', actor }, context);
    if (result.ok) state = result.state;
  }
  return state;
}

const predecessorsArb = fc.uniqueArray(fc.integer({ min: 100, max: 104 }), { maxLength: 3 });
const actionArb: fc.Arbitrary<TTaskAction> = fc.oneof(
  fc.constant<TTaskAction>({ type: 'start' }),
  fc.constant<TTaskAction>({ type: 'submit' }),
  fc.record({ type: fc.constant('accept' as const), actor: fc.integer({ min: 1, max: 6 }) }),
  fc.record(
    {
      type: fc.constant('reject' as const),
      actor: fc.integer({ min: 1, max: 6 }),
      returnTo: fc.uniqueArray(fc.integer({ min: 100, max: 105 }), { maxLength: 2 }),
    },
    { requiredKeys: ['type', 'actor'] },
  ),
  fc.record({ type: fc.constant('set_status' as const), status: fc.constantFrom(...TaskStatuses) }),
  fc.record({
    type: fc.constant('set_reviewers' as const),
    reviewers: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 4 }),
  }),
  fc.constant<TTaskAction>({ type: 'send_back' }),
);

describe('invariants over any sequence of actions (property)', () => {
  it('keep status, iteration and history consistent', () => {
    fc.assert(
      fc.property(
        rulesArb,
        predecessorsArb,
        fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
        fc.array(actionArb, { maxLength: 40 }),
        (rules, predecessors, reviewers, actions) => {
          const context: TTaskContext = { rules, predecessors };
          let state: TTaskState = { status: initialStatus(rules), reviewers, iteration: null };
          for (const action of actions) {
            const before = state;
            const snapshot = structuredClone(before);
            const result = applyTaskAction(before, action, context);
            // The engine never mutates its input.
            expect(before).toEqual(snapshot);
            if ((action.type === 'accept' || action.type === 'reject') && !before.reviewers.includes(action.actor)) {
              expect(result).toEqual({ ok: false, error: 'not_a_reviewer' });
            }
            if (!result.ok) continue;
            state = result.state;

            expect(TaskStatuses).toContain(state.status);
            // A round is open exactly while the task is in review; reviews always have a round.
            expect(state.status === 'review').toBe(state.iteration !== null && !state.iteration.closed);
            if (state.iteration) {
              const all = [...state.iteration.acceptedBy, ...state.iteration.rejectedBy];
              expect(new Set(all).size).toBe(all.length);
              expect(state.iteration.closed).toBe(state.iteration.outcome !== null);
            }
            // Rounds are numbered 1, 2, 3…: entering review opens the next one.
            const enteredReview = state.status === 'review' && before.status !== 'review';
            if (enteredReview) expect(state.iteration!.number).toBe((before.iteration?.number ?? 0) + 1);
            else expect(state.iteration?.number).toBe(before.iteration?.number);

            const changed = state.status !== before.status;
            const reaction = action.type === 'accept' || action.type === 'reject';
            expect(result.history).toHaveLength(changed || reaction ? 1 : 0);
            for (const entry of result.history) {
              expect(entry).toMatchObject({ action: action.type, from: before.status, to: state.status });
              expect(entry.iteration).toBe(state.iteration?.number ?? null);
            }
            if (state.status === 'todo') expect(rules.todoEnabled || before.status === 'todo').toBe(true);

            // return_to sends predecessors back and this task to its start, only from a rejection.
            if (result.effects.returnTo.length > 0) {
              expect(result.effects.returnTo.every((id) => predecessors.includes(id))).toBe(true);
              expect(state.status).toBe(initialStatus(rules));
              expect(state.iteration!.outcome).toBe('returned');
              expect(result.effects.waitForPredecessors).toBe(true);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
