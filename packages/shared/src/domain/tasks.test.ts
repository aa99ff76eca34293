import { describe, expect, it } from 'vitest';
import { en, ru } from '../i18n';
import {
  applyTaskAction,
  availableStatuses,
  effectiveAssignment,
  initialStatus,
  isOverdue,
  isReady,
  ReviewModeLabels,
  showsReady,
  reviewDecision,
  TaskErrorMessages,
  TaskErrorStatus,
  TaskStatusLabels,
  TaskStatuses,
  taskCounters,
  type TIteration,
  type TReviewMode,
  type TStageRules,
  type TTaskAction,
  type TTaskContext,
  type TTaskResult,
  type TTaskState,
  type TTaskStatus,
} from './tasks';

const rules = (over: Partial<TStageRules> = {}): TStageRules => ({
  todoEnabled: true,
  reviewMode: 'each_immediate',
  skipReviewIfNoReviewers: false,
  acceptEditAsDone: false,
  ...over,
});
const ctx = (over: Partial<TStageRules> = {}, predecessors: number[] = []): TTaskContext => ({
  rules: rules(over),
  predecessors,
});
const openRound = (number = 1, over: Partial<TIteration> = {}): TIteration => ({
  number,
  acceptedBy: [],
  rejectedBy: [],
  returnTo: [],
  closed: false,
  outcome: null,
  ...over,
});
const task = (status: TTaskStatus, reviewers: number[] = [1, 2], iteration: TIteration | null = null): TTaskState => ({
  status,
  reviewers,
  iteration: status === 'review' ? (iteration ?? openRound()) : iteration,
});

function ok(result: TTaskResult) {
  if (!result.ok) throw new Error(`expected success, got ${result.error}`);
  return result;
}

/** Applies actions in order, failing on the first refusal. */
function run(state: TTaskState, actions: TTaskAction[], context: TTaskContext) {
  let current = state;
  const results = [];
  for (const action of actions) {
    const result = ok(applyTaskAction(current, action, context));
    results.push(result);
    current = result.state;
  }
  return { state: current, results };
}

describe('initialStatus and availableStatuses', () => {
  it('start in todo, or in progress when To do is disabled', () => {
    expect(initialStatus(rules())).toBe('todo');
    expect(initialStatus(rules({ todoEnabled: false }))).toBe('in_progress');
  });

  it('offer every status, without todo when disabled', () => {
    expect(availableStatuses(rules())).toEqual(['todo', 'in_progress', 'review', 'edit', 'done']);
    expect(availableStatuses(rules({ todoEnabled: false }))).toEqual(['in_progress', 'review', 'edit', 'done']);
  });
});

describe('the transition table: each status × each action', () => {
  const context = ctx();
  /** Expected outcome by a reviewer (actor 1) of a task with reviewers [1, 2], in each_immediate. */
  const table: Record<
    TTaskStatus,
    Record<'start' | 'submit' | 'accept' | 'reject', TTaskStatus | 'invalid_transition'>
  > = {
    todo: {
      start: 'in_progress',
      submit: 'invalid_transition',
      accept: 'invalid_transition',
      reject: 'invalid_transition',
    },
    in_progress: {
      start: 'invalid_transition',
      submit: 'review',
      accept: 'invalid_transition',
      reject: 'invalid_transition',
    },
    review: { start: 'invalid_transition', submit: 'invalid_transition', accept: 'review', reject: 'edit' },
    edit: { start: 'invalid_transition', submit: 'review', accept: 'invalid_transition', reject: 'invalid_transition' },
    done: {
      start: 'invalid_transition',
      submit: 'invalid_transition',
      accept: 'invalid_transition',
      reject: 'invalid_transition',
    },
  };
  const actions = {
    start: { type: 'start' },
    submit: { type: 'submit' },
    accept: { type: 'accept', actor: 1 },
    reject: { type: 'reject', actor: 1 },
  } as const;

  for (const status of TaskStatuses) {
    for (const name of ['start', 'submit', 'accept', 'reject'] as const) {
      const expected = table[status][name];
      it(`${name} from ${status} → ${expected}`, () => {
        const before = task(status, [1, 2], status === 'review' ? openRound(3) : null);
        const result = applyTaskAction(before, actions[name], context);
        if (expected === 'invalid_transition') {
          expect(result).toEqual({ ok: false, error: 'invalid_transition' });
          return;
        }
        const { state, history } = ok(result);
        expect(state.status).toBe(expected);
        expect(history).toHaveLength(1);
        expect(history[0]).toMatchObject({ action: name, from: status, to: expected });
      });
    }

    for (const target of TaskStatuses) {
      it(`set_status from ${status} to ${target}`, () => {
        const before = task(status, [1, 2], status === 'review' ? openRound(3, { acceptedBy: [2] }) : null);
        const { state, history } = ok(
          applyTaskAction(before, { type: 'set_status', status: target, actor: 9 }, context),
        );
        expect(state.status).toBe(target);
        if (status === target) {
          expect(state).toBe(before);
          expect(history).toEqual([]);
          return;
        }
        expect(history).toEqual([
          { action: 'set_status', from: status, to: target, iteration: state.iteration?.number ?? null, actor: 9 },
        ]);
        // Leaving review closes the open round as overridden; entering it opens the next one.
        if (status === 'review')
          expect(state.iteration).toEqual({ ...before.iteration, closed: true, outcome: 'overridden' });
        if (target === 'review')
          expect(state.iteration).toMatchObject({ closed: false, acceptedBy: [], rejectedBy: [] });
        else expect(state.iteration?.closed ?? true).toBe(true);
      });
    }
  }

  it('set_status out of review closes the round as overridden', () => {
    const { state } = ok(
      applyTaskAction(
        task('review', [1, 2], openRound(2, { acceptedBy: [1] })),
        { type: 'set_status', status: 'done' },
        context,
      ),
    );
    expect(state.iteration).toEqual({
      number: 2,
      acceptedBy: [1],
      rejectedBy: [],
      returnTo: [],
      closed: true,
      outcome: 'overridden',
    });
  });

  it('set_status into review opens the next round', () => {
    const closed = openRound(4, { closed: true, outcome: 'edit', rejectedBy: [1] });
    const { state, history } = ok(
      applyTaskAction(task('edit', [1], closed), { type: 'set_status', status: 'review' }, context),
    );
    expect(state.iteration).toEqual(openRound(5));
    expect(history[0]!.iteration).toBe(5);
  });

  it('set_status to todo is refused when the stage has To do disabled', () => {
    expect(
      applyTaskAction(task('in_progress'), { type: 'set_status', status: 'todo' }, ctx({ todoEnabled: false })),
    ).toEqual({
      ok: false,
      error: 'invalid_transition',
    });
  });

  it('start works from todo even when To do was disabled later', () => {
    expect(ok(applyTaskAction(task('todo'), { type: 'start' }, ctx({ todoEnabled: false }))).state.status).toBe(
      'in_progress',
    );
  });
});

describe('submit', () => {
  it('opens a new round numbered after the last, with empty lists', () => {
    const last = openRound(2, { closed: true, outcome: 'edit', rejectedBy: [2], acceptedBy: [1] });
    const { state, history } = ok(applyTaskAction(task('edit', [1, 2], last), { type: 'submit', actor: 5 }, ctx()));
    expect(state).toEqual({ status: 'review', reviewers: [1, 2], iteration: openRound(3) });
    expect(history).toEqual([{ action: 'submit', from: 'edit', to: 'review', iteration: 3, actor: 5 }]);
  });

  it('opens round 1 on the first submission', () => {
    expect(ok(applyTaskAction(task('in_progress'), { type: 'submit' }, ctx())).state.iteration).toEqual(openRound(1));
  });

  it('skips review when the task has no reviewers and skip review is on', () => {
    const { state, history } = ok(
      applyTaskAction(task('in_progress', []), { type: 'submit' }, ctx({ skipReviewIfNoReviewers: true })),
    );
    expect(state.status).toBe('done');
    expect(state.iteration).toBeNull();
    expect(history).toEqual([{ action: 'submit', from: 'in_progress', to: 'done', iteration: null }]);
  });

  it('does not skip review when the task has reviewers, or when skip review is off', () => {
    expect(
      ok(applyTaskAction(task('in_progress', [1]), { type: 'submit' }, ctx({ skipReviewIfNoReviewers: true }))).state
        .status,
    ).toBe('review');
    const waiting = ok(applyTaskAction(task('in_progress', []), { type: 'submit' }, ctx())).state;
    expect(waiting.status).toBe('review');
    // Nobody can decide a round without reviewers: it waits for reviewers or a Member's status change.
    expect(reviewDecision('each_immediate', [], waiting.iteration!)).toBeNull();
  });

  it('skips review from edit too', () => {
    expect(
      ok(applyTaskAction(task('edit', []), { type: 'submit' }, ctx({ skipReviewIfNoReviewers: true }))).state.status,
    ).toBe('done');
  });

  it('accept edit as done: a resubmission after a rejection is done without another round', () => {
    const rejected = openRound(1, { closed: true, outcome: 'edit', rejectedBy: [1] });
    const { state, history } = ok(
      applyTaskAction(task('edit', [1, 2], rejected), { type: 'submit' }, ctx({ acceptEditAsDone: true })),
    );
    expect(state).toEqual({ status: 'done', reviewers: [1, 2], iteration: rejected });
    expect(history).toEqual([{ action: 'submit', from: 'edit', to: 'done', iteration: 1 }]);
  });

  it('accept edit as done does not apply to a first submission from in progress', () => {
    expect(
      ok(applyTaskAction(task('in_progress'), { type: 'submit' }, ctx({ acceptEditAsDone: true }))).state.status,
    ).toBe('review');
  });

  it('a full cycle: start → submit → reject → resubmit → accept by both reviewers', () => {
    const { state, results } = run(
      task('todo'),
      [
        { type: 'start' },
        { type: 'submit' },
        { type: 'reject', actor: 2, comment: 'Fix the colours' },
        { type: 'submit' },
        { type: 'accept', actor: 1 },
        { type: 'accept', actor: 2 },
      ],
      ctx(),
    );
    expect(state.status).toBe('done');
    expect(state.iteration).toEqual({
      number: 2,
      acceptedBy: [1, 2],
      rejectedBy: [],
      returnTo: [],
      closed: true,
      outcome: 'done',
    });
    expect(results.flatMap((r) => r.history).map((h) => [h.from, h.to, h.iteration])).toEqual([
      ['todo', 'in_progress', null],
      ['in_progress', 'review', 1],
      ['review', 'edit', 1],
      ['edit', 'review', 2],
      ['review', 'review', 2],
      ['review', 'done', 2],
    ]);
    expect(results[2]!.history[0]).toEqual({
      action: 'reject',
      from: 'review',
      to: 'edit',
      iteration: 1,
      actor: 2,
      comment: 'Fix the colours',
    });
  });

  it('with To do disabled, work starts in progress and a return goes back there', () => {
    const context = ctx({ todoEnabled: false }, [10]);
    const start = task(initialStatus(context.rules), [1]);
    expect(start.status).toBe('in_progress');
    const { state } = run(start, [{ type: 'submit' }, { type: 'reject', actor: 1, returnTo: [10] }], context);
    expect(state.status).toBe('in_progress');
  });
});

describe('reactions', () => {
  it('refuse a non-reviewer, without changing anything', () => {
    const before = task('review', [1, 2]);
    expect(applyTaskAction(before, { type: 'accept', actor: 3 }, ctx())).toEqual({
      ok: false,
      error: 'not_a_reviewer',
    });
    expect(applyTaskAction(before, { type: 'reject', actor: 3 }, ctx())).toEqual({
      ok: false,
      error: 'not_a_reviewer',
    });
  });

  it('refuse a second reaction in the same round, either way', () => {
    const context = ctx({ reviewMode: 'each_wait' });
    const after = ok(applyTaskAction(task('review', [1, 2]), { type: 'accept', actor: 1 }, context)).state;
    expect(applyTaskAction(after, { type: 'accept', actor: 1 }, context)).toEqual({
      ok: false,
      error: 'already_reacted',
    });
    expect(applyTaskAction(after, { type: 'reject', actor: 1 }, context)).toEqual({
      ok: false,
      error: 'already_reacted',
    });
  });

  it('allow the same reviewer again in the next round', () => {
    const { state } = run(
      task('review', [1]),
      [
        { type: 'reject', actor: 1 },
        { type: 'submit' },
        { type: 'reject', actor: 1 },
        { type: 'submit' },
        { type: 'accept', actor: 1 },
      ],
      ctx(),
    );
    expect(state.status).toBe('done');
    expect(state.iteration!.number).toBe(3);
  });

  it('after a round closed, a late reviewer gets invalid_transition (the server answers 409)', () => {
    const context = ctx({ reviewMode: 'any' });
    const after = ok(applyTaskAction(task('review', [1, 2]), { type: 'accept', actor: 1 }, context)).state;
    expect(applyTaskAction(after, { type: 'reject', actor: 2 }, context)).toEqual({
      ok: false,
      error: 'invalid_transition',
    });
  });

  it('record a reaction that does not decide as a review → review history entry', () => {
    const { history } = ok(applyTaskAction(task('review', [1, 2]), { type: 'accept', actor: 1, comment: 'ok' }, ctx()));
    expect(history).toEqual([
      { action: 'accept', from: 'review', to: 'review', iteration: 1, actor: 1, comment: 'ok' },
    ]);
  });
});

type TReaction = [actor: number, verdict: 'a' | 'r'];
const react = (mode: TReviewMode, reviewers: number[], reactions: TReaction[]) =>
  run(
    task('review', reviewers),
    reactions.map(([actor, verdict]) => (verdict === 'a' ? { type: 'accept', actor } : { type: 'reject', actor })),
    ctx({ reviewMode: mode }),
  ).state;

describe('review modes', () => {
  const cases: [TReviewMode, number[], TReaction[], TTaskStatus][] = [
    // each_immediate: the first rejection decides; done needs everyone.
    ['each_immediate', [1], [[1, 'a']], 'done'],
    ['each_immediate', [1], [[1, 'r']], 'edit'],
    ['each_immediate', [1, 2], [[1, 'a']], 'review'],
    [
      'each_immediate',
      [1, 2],
      [
        [2, 'a'],
        [1, 'a'],
      ],
      'done',
    ],
    [
      'each_immediate',
      [1, 2],
      [
        [1, 'a'],
        [2, 'r'],
      ],
      'edit',
    ],
    ['each_immediate', [1, 2], [[2, 'r']], 'edit'],
    [
      'each_immediate',
      [1, 2, 3],
      [
        [1, 'a'],
        [3, 'a'],
      ],
      'review',
    ],
    [
      'each_immediate',
      [1, 2, 3],
      [
        [1, 'a'],
        [3, 'a'],
        [2, 'a'],
      ],
      'done',
    ],
    [
      'each_immediate',
      [1, 2, 3],
      [
        [1, 'a'],
        [3, 'r'],
      ],
      'edit',
    ],
    ['each_immediate', [1, 2, 3], [[3, 'r']], 'edit'],
    // each_wait: nothing closes until everyone reacted.
    ['each_wait', [1], [[1, 'a']], 'done'],
    ['each_wait', [1], [[1, 'r']], 'edit'],
    ['each_wait', [1, 2], [[1, 'r']], 'review'],
    [
      'each_wait',
      [1, 2],
      [
        [1, 'r'],
        [2, 'a'],
      ],
      'edit',
    ],
    [
      'each_wait',
      [1, 2],
      [
        [2, 'a'],
        [1, 'a'],
      ],
      'done',
    ],
    [
      'each_wait',
      [1, 2, 3],
      [
        [1, 'a'],
        [2, 'r'],
      ],
      'review',
    ],
    [
      'each_wait',
      [1, 2, 3],
      [
        [1, 'a'],
        [2, 'a'],
        [3, 'a'],
      ],
      'done',
    ],
    [
      'each_wait',
      [1, 2, 3],
      [
        [3, 'a'],
        [2, 'a'],
        [1, 'r'],
      ],
      'edit',
    ],
    [
      'each_wait',
      [1, 2, 3],
      [
        [3, 'r'],
        [2, 'r'],
        [1, 'r'],
      ],
      'edit',
    ],
    // any: the first reaction decides.
    ['any', [1], [[1, 'a']], 'done'],
    ['any', [1], [[1, 'r']], 'edit'],
    ['any', [1, 2], [[2, 'a']], 'done'],
    ['any', [1, 2], [[1, 'r']], 'edit'],
    ['any', [1, 2, 3], [[3, 'a']], 'done'],
    ['any', [1, 2, 3], [[2, 'r']], 'edit'],
  ];
  for (const [mode, reviewers, reactions, expected] of cases) {
    it(`${mode} with ${reviewers.length} reviewer(s), ${reactions.map(([a, v]) => `${a}${v}`).join(' ')} → ${expected}`, () => {
      const state = react(mode, reviewers, reactions);
      expect(state.status).toBe(expected);
      expect(state.iteration!.closed).toBe(expected !== 'review');
      if (expected !== 'review') expect(state.iteration!.outcome).toBe(expected);
    });
  }

  it('each_immediate: after the first rejection closed the round, the others are too late', () => {
    const context = ctx({ reviewMode: 'each_immediate' });
    const after = react(
      'each_immediate',
      [1, 2, 3],
      [
        [1, 'a'],
        [2, 'r'],
      ],
    );
    expect(applyTaskAction(after, { type: 'accept', actor: 3 }, context)).toEqual({
      ok: false,
      error: 'invalid_transition',
    });
  });

  it('each_wait: two reviewers racing in either order give the same outcome', () => {
    expect(
      react(
        'each_wait',
        [1, 2],
        [
          [1, 'a'],
          [2, 'r'],
        ],
      ).status,
    ).toBe('edit');
    expect(
      react(
        'each_wait',
        [1, 2],
        [
          [2, 'r'],
          [1, 'a'],
        ],
      ).status,
    ).toBe('edit');
    expect(
      react(
        'each_immediate',
        [1, 2],
        [
          [1, 'a'],
          [2, 'a'],
        ],
      ).status,
    ).toBe('done');
    expect(
      react(
        'each_immediate',
        [1, 2],
        [
          [2, 'a'],
          [1, 'a'],
        ],
      ).status,
    ).toBe('done');
  });
});

describe('changing reviewers during a round', () => {
  it('each_wait closes when the one reviewer it waited for is removed', () => {
    const context = ctx({ reviewMode: 'each_wait' });
    const waiting = react(
      'each_wait',
      [1, 2, 3],
      [
        [1, 'a'],
        [2, 'a'],
      ],
    );
    const { state, history } = ok(
      applyTaskAction(waiting, { type: 'set_reviewers', reviewers: [1, 2], actor: 9 }, context),
    );
    expect(state.status).toBe('done');
    expect(history).toEqual([{ action: 'set_reviewers', from: 'review', to: 'done', iteration: 1, actor: 9 }]);
  });

  it('a removed reviewer’s reaction no longer counts, an added one is waited for', () => {
    const context = ctx({ reviewMode: 'each_wait' });
    const waiting = react('each_wait', [1, 2], [[1, 'r']]);
    const { state, history } = ok(applyTaskAction(waiting, { type: 'set_reviewers', reviewers: [2, 3] }, context));
    expect(state.status).toBe('review');
    expect(state.reviewers).toEqual([2, 3]);
    expect(history).toEqual([]);
    expect(
      run(
        state,
        [
          { type: 'accept', actor: 2 },
          { type: 'accept', actor: 3 },
        ],
        context,
      ).state.status,
    ).toBe('done');
  });

  it('outside review only the list changes; duplicates are dropped', () => {
    const { state, history } = ok(
      applyTaskAction(task('todo', [1]), { type: 'set_reviewers', reviewers: [4, 4, 5] }, ctx()),
    );
    expect(state).toEqual({ status: 'todo', reviewers: [4, 5], iteration: null });
    expect(history).toEqual([]);
  });

  it('removing every reviewer leaves the round open', () => {
    const { state } = ok(applyTaskAction(task('review', [1]), { type: 'set_reviewers', reviewers: [] }, ctx()));
    expect(state.status).toBe('review');
    expect(state.iteration!.closed).toBe(false);
  });
});

describe('reject with return_to', () => {
  it('one of two predecessors: that one goes to edit, this task waits at its start', () => {
    const { state, history, effects } = ok(
      applyTaskAction(
        task('review', [1]),
        { type: 'reject', actor: 1, returnTo: [10], comment: 'Bad model' },
        ctx({}, [10, 11]),
      ),
    );
    expect(state.status).toBe('todo');
    expect(state.iteration).toMatchObject({ closed: true, outcome: 'returned', rejectedBy: [1], returnTo: [10] });
    expect(effects).toEqual({ returnTo: [10], waitForPredecessors: true });
    expect(history).toEqual([
      { action: 'reject', from: 'review', to: 'todo', iteration: 1, actor: 1, comment: 'Bad model' },
    ]);

    // The server sends predecessor 10 back; predecessor 11 is untouched and stays done.
    const sent = ok(
      applyTaskAction(
        task('done', [7], openRound(1, { closed: true, outcome: 'done' })),
        { type: 'send_back', actor: 1, comment: 'Bad model' },
        ctx(),
      ),
    );
    expect(sent.state.status).toBe('edit');
    expect(sent.history).toEqual([
      { action: 'send_back', from: 'done', to: 'edit', iteration: 1, actor: 1, comment: 'Bad model' },
    ]);
    expect(isReady(['edit', 'done'])).toBe(false);
    expect(isReady(['done', 'done'])).toBe(true);
  });

  it('with several predecessors the choice is required; an explicit empty list sends this task to edit', () => {
    const context = ctx({}, [10, 11]);
    expect(applyTaskAction(task('review', [1]), { type: 'reject', actor: 1 }, context)).toEqual({
      ok: false,
      error: 'return_to_required',
    });
    const { state, effects } = ok(
      applyTaskAction(task('review', [1]), { type: 'reject', actor: 1, returnTo: [] }, context),
    );
    expect(state.status).toBe('edit');
    expect(effects).toEqual({ returnTo: [], waitForPredecessors: false });
  });

  it('with one or no predecessor an absent return_to means this task to edit', () => {
    expect(ok(applyTaskAction(task('review', [1]), { type: 'reject', actor: 1 }, ctx({}, [10]))).state.status).toBe(
      'edit',
    );
    expect(ok(applyTaskAction(task('review', [1]), { type: 'reject', actor: 1 }, ctx({}, []))).state.status).toBe(
      'edit',
    );
  });

  it('refuses a stage that is not a predecessor, and a duplicate is counted once', () => {
    const context = ctx({}, [10, 11]);
    expect(applyTaskAction(task('review', [1]), { type: 'reject', actor: 1, returnTo: [12] }, context)).toEqual({
      ok: false,
      error: 'return_to_not_predecessor',
    });
    expect(
      ok(applyTaskAction(task('review', [1]), { type: 'reject', actor: 1, returnTo: [11, 11] }, context)).effects
        .returnTo,
    ).toEqual([11]);
  });

  it('each_wait unites the return_to lists and applies them when the round closes', () => {
    const context = ctx({ reviewMode: 'each_wait' }, [10, 11, 12]);
    const { state, results } = run(
      task('review', [1, 2, 3]),
      [
        { type: 'reject', actor: 1, returnTo: [10] },
        { type: 'reject', actor: 2, returnTo: [] },
        { type: 'accept', actor: 3 },
      ],
      context,
    );
    expect(results[0]!.effects.returnTo).toEqual([]);
    expect(results[2]!.effects).toEqual({ returnTo: [10], waitForPredecessors: true });
    expect(state.status).toBe('todo');
  });

  it('send_back leaves unfinished tasks alone and closes an open round', () => {
    for (const status of ['todo', 'in_progress', 'edit'] as const) {
      const before = task(status);
      const result = ok(applyTaskAction(before, { type: 'send_back' }, ctx()));
      expect(result.state).toBe(before);
      expect(result.history).toEqual([]);
    }
    const { state } = ok(
      applyTaskAction(
        task('review', [1], openRound(2, { acceptedBy: [1] })),
        { type: 'send_back' },
        ctx({ reviewMode: 'each_wait' }),
      ),
    );
    expect(state).toMatchObject({ status: 'edit', iteration: { number: 2, closed: true, outcome: 'overridden' } });
  });

  it('a returned predecessor fixed with accept edit as done is done at once, and this task is ready again', () => {
    const sent = ok(applyTaskAction(task('done', [1]), { type: 'send_back' }, ctx())).state;
    const fixed = ok(applyTaskAction(sent, { type: 'submit' }, ctx({ acceptEditAsDone: true }))).state;
    expect(fixed.status).toBe('done');
    expect(isReady([fixed.status, 'done'])).toBe(true);
  });
});

describe('isReady', () => {
  it('is true with no predecessors (fed by the start) and when all are done', () => {
    expect(isReady([])).toBe(true);
    expect(isReady(['done'])).toBe(true);
    expect(isReady(['done', 'done', 'done'])).toBe(true);
  });

  it('is false while any predecessor is not done', () => {
    for (const status of TaskStatuses.filter((s) => s !== 'done')) {
      expect(isReady([status])).toBe(false);
      expect(isReady(['done', status])).toBe(false);
    }
  });
});

describe('isOverdue', () => {
  const now = new Date('2025-03-10T12:00:00Z');

  it('is due strictly before now: due == now is not overdue', () => {
    expect(isOverdue(new Date('2025-03-10T11:59:59.999Z'), 'todo', now)).toBe(true);
    expect(isOverdue(new Date('2025-03-10T12:00:00Z'), 'todo', now)).toBe(false);
    expect(isOverdue(new Date('2025-03-10T12:00:00.001Z'), 'todo', now)).toBe(false);
  });

  it('is never overdue when done or without a due date', () => {
    expect(isOverdue(new Date('2000-01-01'), 'done', now)).toBe(false);
    expect(isOverdue(null, 'todo', now)).toBe(false);
    expect(isOverdue(undefined, 'review', now)).toBe(false);
  });

  it('is overdue in every other status', () => {
    for (const status of ['todo', 'in_progress', 'review', 'edit'] as const)
      expect(isOverdue('2025-03-09', status, now)).toBe(true);
  });

  it('takes ISO strings and timestamps as well as dates', () => {
    expect(isOverdue('2025-03-10T11:00:00Z', 'edit', '2025-03-10T12:00:00Z')).toBe(true);
    expect(isOverdue(now.getTime() - 1, 'edit', now.getTime())).toBe(true);
  });
});

describe('effectiveAssignment', () => {
  const stage = { assignees: [1], reviewers: [2, 3], dueDays: 3, dueDate: null };
  const own = {
    useStageDefaults: false,
    assignees: [4],
    reviewers: [5],
    dueDate: '2025-05-01T00:00:00Z',
    readyAt: '2025-03-01T09:00:00Z',
  };

  it('uses the task’s own values once use_stage_defaults is off', () => {
    expect(effectiveAssignment(own, stage)).toEqual({
      assignees: [4],
      reviewers: [5],
      dueDate: new Date('2025-05-01T00:00:00Z'),
    });
    expect(effectiveAssignment({ ...own, dueDate: null }, stage).dueDate).toBeNull();
  });

  it('with stage defaults, a due date N days after the task became ready', () => {
    expect(effectiveAssignment({ ...own, useStageDefaults: true }, stage)).toEqual({
      assignees: [1],
      reviewers: [2, 3],
      dueDate: new Date('2025-03-04T09:00:00Z'),
    });
  });

  it('has no default due date while the task is not ready', () => {
    expect(effectiveAssignment({ ...own, useStageDefaults: true, readyAt: null }, stage).dueDate).toBeNull();
  });

  it('a fixed default date applies whether ready or not, and wins over days', () => {
    const fixed = { ...stage, dueDate: new Date('2025-06-01T00:00:00Z') };
    expect(effectiveAssignment({ ...own, useStageDefaults: true, readyAt: null }, fixed).dueDate).toEqual(
      new Date('2025-06-01T00:00:00Z'),
    );
  });

  it('no default due date at all gives none', () => {
    expect(effectiveAssignment({ ...own, useStageDefaults: true }, { ...stage, dueDays: null }).dueDate).toBeNull();
  });

  it('returns copies, so callers cannot mutate the stage', () => {
    const result = effectiveAssignment({ ...own, useStageDefaults: true }, stage);
    result.reviewers.push(99);
    expect(stage.reviewers).toEqual([2, 3]);
  });
});

describe('taskCounters', () => {
  const now = '2025-03-10T12:00:00Z';

  it('counts per status plus overdue', () => {
    const counters = taskCounters(
      [
        { status: 'todo', dueDate: '2025-03-01T00:00:00Z' },
        { status: 'todo', dueDate: null },
        { status: 'in_progress', dueDate: now },
        { status: 'review', dueDate: '2025-03-10T11:00:00Z' },
        { status: 'edit', dueDate: '2025-04-01T00:00:00Z' },
        { status: 'done', dueDate: '2025-01-01T00:00:00Z' },
        { status: 'done', dueDate: null },
      ],
      now,
    );
    expect(counters).toEqual({ todo: 2, in_progress: 1, review: 1, edit: 1, done: 2, overdue: 2 });
  });

  it('is all zeros for no tasks', () => {
    expect(taskCounters([], now)).toEqual({ todo: 0, in_progress: 0, review: 0, edit: 0, done: 0, overdue: 0 });
  });
});

describe('messages and labels', () => {
  it('are i18n keys with a Russian translation', () => {
    const keys = [
      ...Object.values(TaskErrorMessages),
      ...Object.values(TaskStatusLabels),
      ...Object.values(ReviewModeLabels),
    ];
    expect(keys.filter((key) => !(key in en) || !(key in ru))).toEqual([]);
  });

  it('map refusals to 400, 403 and 409', () => {
    expect(TaskErrorStatus).toEqual({
      invalid_transition: 409,
      not_a_reviewer: 403,
      already_reacted: 409,
      return_to_required: 400,
      return_to_not_predecessor: 400,
    });
  });
});

describe('showsReady', () => {
  it('marks a ready task only while it waits to be taken up: to do or back in edit', () => {
    const marked = TaskStatuses.filter((status) => showsReady(status, true));
    expect(marked).toEqual(['todo', 'edit']);
    expect(TaskStatuses.filter((status) => showsReady(status, false))).toEqual([]);
  });
});
