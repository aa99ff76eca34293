// One file for the units and tasks screens' routed journeys, which share the app harness's served answers and fixtures.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TMatrixPage, TTask, TTaskListItem } from '@stageline/shared';

import {
  calls,
  json,
  lazy,
  pipeline,
  renderAt,
  sent,
  serve,
  setupAppHarness,
  wholeOf,
  type TRoute,
} from '../../../test/app-harness';
import { sampleTask } from '../../../test/served';

setupAppHarness();

const person = (id: number, name: string) => ({ id, name, username: name.toLowerCase() });

/** Task 50 of unit 3 at stage 12 (after stages 10 and 11), awaiting review by Ada (me, id 1). */
const task = (over: Partial<TTask> = {}, options?: Parameters<typeof sampleTask>[1]): TTask =>
  sampleTask(
    {
      status: 'review',
      assignees: [person(2, 'Bob')],
      reviewers: [person(1, 'Ada'), person(3, 'Cleo')],
      iteration: { number: 1, accepted_by: [], rejected_by: [], closed: false, outcome: null },
      predecessors: [
        { task: 48, stage: 10, stage_name: 'Layout', status: 'done' },
        { task: 49, stage: 11, stage_name: 'Lighting', status: 'done' },
      ],
      role: 'guest',
      ...over,
    },
    options,
  );

const taskRoute =
  (value: TTask, answers: Record<string, Response> = {}): TRoute =>
  ({ method, url }) => {
    if (method === 'GET' && url === `/api/tasks/${value.id}/`) return json(200, value);
    return answers[`${method} ${url}`];
  };

describe('task details', () => {
  it('shows a reviewer Accept and Reject, and nothing a guest may not do', async () => {
    serve('guest', taskRoute(task()));
    renderAt('/app/tasks/50');
    expect((await screen.findByTestId('task-status', {}, lazy)).getAttribute('data-status')).toBe('review');
    expect(screen.getByTestId('task-accept')).toBeInTheDocument();
    expect(screen.getByTestId('task-reject')).toBeInTheDocument();
    expect(screen.queryByTestId('task-start')).toBeNull();
    expect(screen.queryByTestId('task-submit')).toBeNull();
    expect(screen.queryByTestId('task-status-select')).toBeNull();
    expect(screen.getByTestId('task-tab-context')).toBeInTheDocument();
    expect(screen.getByTestId('task-tab-diagram')).toBeInTheDocument();
  });

  it('titles the tab after the task and its project, then after the next screen', async () => {
    serve('guest', taskRoute(task()));
    const router = renderAt('/app/tasks/50');
    await screen.findByTestId('task-status', {}, lazy);
    expect(document.title).toBe('Shot 1 · Compositing — Shorts — Stageline');
    await router.navigate('/app/profile');
    await waitFor(() => expect(document.title).toBe('Profile — Stageline'), lazy);
  });

  it('shows no round outcome while the round is open', async () => {
    serve('guest', taskRoute(task({ status: 'review' })));
    renderAt('/app/tasks/50');
    await screen.findByTestId('task-status', {}, lazy);
    expect(screen.queryByTestId('task-round-outcome')).toBeNull();
  });

  it.each([
    ['done', [], 'Round 2 closed: accepted'],
    ['edit', [], 'Round 2 closed: returned to Edit'],
    ['returned', [11, 10], 'Round 2 closed: sent back to Lighting, Layout'],
    ['overridden', [], 'Round 2 closed: the status was changed by hand'],
  ] as const)('shows a round closed as %s', async (outcome, returnTo, text) => {
    const iteration = { number: 2, accepted_by: [], rejected_by: [], closed: true, outcome, return_to: [...returnTo] };
    serve('guest', taskRoute(task({ status: 'edit', iteration })));
    renderAt('/app/tasks/50');
    expect((await screen.findByTestId('task-round-outcome', {}, lazy)).textContent).toBe(text);
  });

  it('offers a guest who is not a reviewer no action at all', async () => {
    serve('guest', taskRoute(task({ reviewers: [person(3, 'Cleo')] })));
    renderAt('/app/tasks/50');
    await screen.findByTestId('task-status', {}, lazy);
    for (const id of ['task-accept', 'task-reject', 'task-start', 'task-submit', 'task-status-select'])
      expect(screen.queryByTestId(id)).toBeNull();
  });

  it('lets a member start a task to do and set any status', async () => {
    serve('member', taskRoute(task({ status: 'todo', iteration: null, reviewers: [], role: 'member' })));
    renderAt('/app/tasks/50');
    expect(await screen.findByTestId('task-start', {}, lazy)).toBeInTheDocument();
    expect(screen.getByTestId('task-status-select')).toBeInTheDocument();
    expect(screen.queryByTestId('task-accept')).toBeNull();
  });

  it('offers only the statuses the server allows: no To do where the stage has it switched off', async () => {
    const inProgress = { status: 'in_progress' as const, iteration: null, reviewers: [], role: 'member' as const };
    serve('member', taskRoute(task(inProgress, { todoEnabled: false })));
    renderAt('/app/tasks/50');
    const select = await screen.findByTestId('task-status-select', {}, lazy);
    fireEvent.focus(select);
    fireEvent.click(select);
    fireEvent.keyDown(select, { key: 'ArrowDown' });
    const listbox = await waitFor(() => document.getElementById(select.getAttribute('aria-controls') ?? '')!);
    const options = within(listbox)
      .getAllByRole('option', { hidden: true })
      .map((option) => option.textContent);
    expect(options).toEqual(['Work in progress', 'Review', 'Edit', 'Done']);
  });

  it('lets a guest assignee submit work in progress', async () => {
    serve('guest', taskRoute(task({ status: 'in_progress', assignees: [person(1, 'Ada')], reviewers: [] })));
    renderAt('/app/tasks/50');
    expect(await screen.findByTestId('task-submit', {}, lazy)).toBeInTheDocument();
    expect(screen.queryByTestId('task-status-select')).toBeNull();
  });

  it('requires choosing what to send back when the stage has two predecessors', async () => {
    const rejected = task({
      status: 'in_progress',
      iteration: { number: 1, accepted_by: [], rejected_by: [1], closed: true, outcome: 'edit' },
    });
    serve('guest', taskRoute(task(), { 'POST /api/tasks/50/reject/': json(200, rejected) }));
    renderAt('/app/tasks/50');
    fireEvent.click(await screen.findByTestId('task-reject', {}, lazy));
    fireEvent.click(await screen.findByTestId('reject-confirm'));
    expect((await screen.findByTestId('reject-choice-required')).textContent).toBe(
      'Choose the stages to send for revision.',
    );
    expect(sent('POST', '/api/tasks/50/reject/')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('reject-comment'), { target: { value: 'Too dark' } });
    fireEvent.click(screen.getByTestId('reject-return-11'));
    fireEvent.click(screen.getByTestId('reject-confirm'));
    await waitFor(() => expect(sent('POST', '/api/tasks/50/reject/')).toHaveLength(1), lazy);
    expect(sent('POST', '/api/tasks/50/reject/')[0]!.body).toEqual({ comment: 'Too dark', return_to: [11] });
  });

  it('sends both predecessors back when both are chosen', async () => {
    serve('guest', taskRoute(task(), { 'POST /api/tasks/50/reject/': json(200, task({ status: 'todo' })) }));
    renderAt('/app/tasks/50');
    fireEvent.click(await screen.findByTestId('task-reject', {}, lazy));
    fireEvent.click(await screen.findByTestId('reject-return-10'));
    fireEvent.click(screen.getByTestId('reject-return-11'));
    fireEvent.click(screen.getByTestId('reject-confirm'));
    await waitFor(() => expect(sent('POST', '/api/tasks/50/reject/')).toHaveLength(1), lazy);
    expect(sent('POST', '/api/tasks/50/reject/')[0]!.body).toEqual({ return_to: [10, 11] });
  });

  it('sends an empty return_to for "this task"', async () => {
    serve('guest', taskRoute(task(), { 'POST /api/tasks/50/reject/': json(200, task({ status: 'edit' })) }));
    renderAt('/app/tasks/50');
    fireEvent.click(await screen.findByTestId('task-reject', {}, lazy));
    fireEvent.click(await screen.findByTestId('reject-return-self'));
    fireEvent.click(screen.getByTestId('reject-confirm'));
    await waitFor(() => expect(sent('POST', '/api/tasks/50/reject/')).toHaveLength(1), lazy);
    expect(sent('POST', '/api/tasks/50/reject/')[0]!.body).toEqual({ return_to: [] });
  });

  it("says 'Task update error' with the server's detail when an action fails", async () => {
    serve(
      'guest',
      taskRoute(task(), {
        'POST /api/tasks/50/accept/': json(409, {
          detail: 'You have already reacted in this review round.',
          code: 'conflict',
        }),
      }),
    );
    renderAt('/app/tasks/50');
    fireEvent.click(await screen.findByTestId('task-accept', {}, lazy));
    fireEvent.click(await screen.findByTestId('accept-confirm'));
    expect(await screen.findByText('Task update error', {}, lazy)).toBeInTheDocument();
    expect(screen.getAllByText('You have already reacted in this review round.').length).toBeGreaterThan(0);
  });

  it('says once that the server is unavailable, without a second "Task update error"', async () => {
    serve('guest', taskRoute(task(), { 'POST /api/tasks/50/accept/': json(502, {}) }));
    renderAt('/app/tasks/50');
    fireEvent.click(await screen.findByTestId('task-accept', {}, lazy));
    fireEvent.click(await screen.findByTestId('accept-confirm'));
    expect(await screen.findByText('Server Unavailable', {}, lazy)).toBeInTheDocument();
    expect(screen.queryByText('Task update error')).toBeNull();
  });
});

const twoStages = [
  { id: 10, name: 'Layout' },
  { id: 11, name: 'Lighting' },
];
function matrixPage(offset: number, limit: number, count: number, stages = twoStages): TMatrixPage {
  const rows = [];
  for (let i = offset; i < Math.min(offset + limit, count); i++)
    rows.push({
      unit: { id: 1000 + i, name: `Shot ${i}`, fields: {} },
      tasks: stages.map((s, k) => ({
        id: 10_000 + i * 10 + k,
        stage: s.id,
        status: k === 0 ? ('done' as const) : ('todo' as const),
        ready: k === 1,
        overdue: false,
        due_date: null,
        assignees: [],
        files: k === 1 ? i % 3 : 0,
      })),
    });
  return { count, next_cursor: null, stages, rows };
}
/** The matrix of `count` units, whole or a page at a time, as the screen asks for it. */
const matrixRoute =
  (count: number, stages = twoStages): TRoute =>
  ({ method, url }) => {
    if (method !== 'GET' || !url.startsWith('/api/units/matrix/')) return undefined;
    if (url.startsWith('/api/units/matrix/whole/')) return json(200, wholeOf(matrixPage(0, count, count, stages)));
    const query = new URL(url, 'http://x').searchParams;
    return json(200, matrixPage(Number(query.get('offset')), Number(query.get('limit')), count, stages));
  };
/** Pipeline 7 with more units than the screen loads at once (two stages, 30,000 tasks on each). */
const pagedPipeline: TRoute = ({ method, url }) =>
  method === 'GET' && url === '/api/pipelines/?project=5&counters=false'
    ? json(200, [{ ...pipeline(7, 'Animation'), stages_count: 2, units_count: 30_000, task_counters: undefined }])
    : undefined;
const matrixQueries = () =>
  calls.filter((c) => c.url.startsWith('/api/units/matrix/')).map((c) => new URL(c.url, 'http://x').searchParams);

describe('unit matrix', () => {
  it("asks for the project, its pipelines and the first page from the route's loader, before the shell has the user", async () => {
    // users/me/ never answers: the shell cannot render the screen, so these reads come from the
    // route's loader (decision 122), not from the screen's own queries.
    serve('member', ({ method, url }) =>
      method === 'GET' && url === '/api/users/me/' ? new Promise<Response>(() => undefined) : undefined,
    );
    renderAt('/app/projects/5/units?pipeline=7&status=review');
    await waitFor(() => {
      const asked = calls.map((c) => c.url);
      expect(asked).toContain('/api/projects/5/');
      expect(asked).toContain('/api/pipelines/?project=5&counters=false');
      expect(asked.filter((url) => url.startsWith('/api/units/matrix/?'))).toHaveLength(1);
    }, lazy);
    const page = new URL(calls.find((c) => c.url.startsWith('/api/units/matrix/?'))!.url, 'http://x').searchParams;
    expect(Object.fromEntries(page)).toMatchObject({ pipeline: '7', status: 'review', offset: '0', sort: 'name' });
    expect(screen.queryByTestId('matrix')).toBeNull();
  });

  it('loads a pipeline up to 20,000 units whole, and filters and sorts it in the browser', async () => {
    serve('member', matrixRoute(150));
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
    // Shot 12 and Shot 120 … Shot 129 contain "shot 12" (not Shot 112); newest first.
    renderAt('/app/projects/5/units?pipeline=7&search=shot%2012&sort=-created');
    const matrix = await screen.findByTestId('matrix', {}, lazy);
    await waitFor(() => expect(matrix.getAttribute('data-count')).toBe('11'), lazy);
    const rows = await screen.findAllByTestId('matrix-row');
    expect(rows.map((row) => row.getAttribute('data-unit-id'))).toEqual(
      [129, 128, 127, 126, 125, 124, 123, 122, 121, 120, 12].map((n) => String(1000 + n)),
    );
    expect(within(rows[0]!).getAllByTestId('matrix-cell')[1]!.getAttribute('data-status')).toBe('todo');
    // The whole matrix once; at most the first page beside it, drawn only until the whole arrived
    // (that page ignores the search here: its 150 rows would show as a count of 150).
    const asked = matrixQueries().map(String);
    expect(asked.filter((query) => query === 'pipeline=7')).toHaveLength(1);
    expect(asked.filter((query) => query !== 'pipeline=7').every((query) => query.includes('offset=0'))).toBe(true);
    expect(asked.length).toBeLessThanOrEqual(2);
  });

  it('pages a bigger pipeline from the server: the first page with the filters of the URL, then the pages scrolled to', async () => {
    serve('member', (call) => pagedPipeline(call) ?? matrixRoute(10_000)(call));
    // The test DOM has no layout: the scroller is a 600 px window.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
    renderAt('/app/projects/5/units?pipeline=7&status=review&assignee=me&overdue=true&search=shot&sort=-created');
    const matrix = await screen.findByTestId('matrix', {}, lazy);
    await waitFor(() => expect(matrix.getAttribute('data-count')).toBe('10000'), lazy);
    const [first] = matrixQueries();
    expect(Object.fromEntries(first!)).toEqual({
      pipeline: '7',
      sort: '-created',
      status: 'review',
      assignee: 'me',
      overdue: 'true',
      search: 'shot',
      offset: '0',
      limit: '100',
    });
    const rows = await screen.findAllByTestId('matrix-row');
    expect(rows.length).toBeLessThan(50);
    expect(rows[0]!.getAttribute('data-unit-id')).toBe('1000');
    const cell = within(rows[0]!).getAllByTestId('matrix-cell')[1]!;
    expect(cell.getAttribute('data-status')).toBe('todo');
    expect(cell.getAttribute('data-stage-id')).toBe('11');
    expect(cell.getAttribute('href')).toMatch(/^\/app\/tasks\/\d+$/);
    // The paperclip: only on cells with files, with their count.
    expect(within(cell).queryByTestId('matrix-cell-files')).toBeNull();
    const withFiles = within(rows[2]!).getAllByTestId('matrix-cell')[1]!;
    expect(within(withFiles).getByTestId('matrix-cell-files')).toHaveTextContent('2');
    expect(withFiles.getAttribute('title')).toContain('2 files');

    Object.defineProperty(matrix, 'scrollTop', { configurable: true, value: 36 * 5_050 });
    fireEvent.scroll(matrix);
    await waitFor(() => expect(matrixQueries().some((q) => q.get('offset') === '5000')).toBe(true), lazy);
    expect(matrixQueries().every((q) => q.get('status') === 'review' && q.get('limit') === '100')).toBe(true);
    expect(await screen.findByText('Shot 5050', {}, lazy)).toBeInTheDocument();
  });

  it('draws only the stage columns in view of a 500-stage pipeline, in the order the server sent', async () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ id: 5000 - i, name: `Stage ${i}` }));
    serve('member', matrixRoute(3, many));
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
    renderAt('/app/projects/5/units?pipeline=7');
    const matrix = await screen.findByTestId('matrix', {}, lazy);
    await waitFor(() => expect(matrix.getAttribute('data-count')).toBe('3'), lazy);
    const heads = () => screen.getAllByTestId('matrix-stage').map((h) => h.textContent);
    expect(heads()[0]).toBe('Stage 0');
    // About a dozen 88 px columns fill 1,200 px, with three more drawn either side.
    expect(heads().length).toBeLessThan(25);
    const [row] = await screen.findAllByTestId('matrix-row');
    expect(within(row!).getAllByTestId('matrix-cell')).toHaveLength(heads().length);
    expect(within(row!).getAllByTestId('matrix-cell')[1]!.getAttribute('data-stage-id')).toBe('4999');

    // Scrolled to the 400th column: that one is drawn, the first ones are not.
    // 500 columns never fit: each is the narrowest, 88 px (decision 203).
    Object.defineProperty(matrix, 'scrollLeft', { configurable: true, value: 88 * 400 });
    fireEvent.scroll(matrix);
    await waitFor(() => expect(heads()).toContain('Stage 400'));
    expect(heads()).not.toContain('Stage 0');
    expect(heads().length).toBeLessThan(25);
  });

  it('moves between cells with the arrow keys and opens a task with one click handler for the grid', async () => {
    // Unit 1001's task at stage 11 (see matrixPage).
    const opened = taskRoute(task({ id: 10_011 }));
    serve('member', (call) => matrixRoute(3)(call) ?? opened(call));
    renderAt('/app/projects/5/units?pipeline=7');
    const matrix = await screen.findByTestId('matrix', {}, lazy);
    await waitFor(() => expect(matrix.getAttribute('data-count')).toBe('3'), lazy);
    await screen.findAllByTestId('matrix-cell');

    matrix.focus();
    fireEvent.keyDown(matrix, { key: 'ArrowDown' });
    expect(document.activeElement).toHaveAttribute('data-testid', 'matrix-unit-link');
    fireEvent.keyDown(matrix, { key: 'ArrowRight' });
    fireEvent.keyDown(matrix, { key: 'ArrowRight' });
    fireEvent.keyDown(matrix, { key: 'ArrowDown' });
    const focused = document.activeElement!;
    expect(focused).toHaveAttribute('data-testid', 'matrix-cell');
    expect(focused).toHaveAttribute('data-stage-id', '11');
    expect(focused.closest('[data-testid="matrix-row"]')).toHaveAttribute('data-unit-id', '1001');
    // Cells are plain links without router components: the grid's handler navigates.
    fireEvent.click(focused);
    expect(await screen.findByTestId('task-status', {}, lazy)).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/api/tasks/10011/')).toBe(true);
  });

  it('offers a guest no Create buttons', async () => {
    serve('guest', matrixRoute(3));
    renderAt('/app/projects/5/units');
    await waitFor(async () => expect((await screen.findByTestId('matrix')).getAttribute('data-count')).toBe('3'), lazy);
    expect(screen.queryByTestId('unit-create-open')).toBeNull();
    expect(screen.queryByTestId('unit-create-multiple-open')).toBeNull();
  });
});

describe('batch unit creation', () => {
  it('validates the template with ZBatchUnits and previews the names live, then creates', async () => {
    serve('member', (call) => {
      if (call.method === 'POST' && call.url === '/api/units/batch/')
        return json(201, { created: 12, units: [{ id: 1, name: 'x' }] });
      return matrixRoute(12)(call);
    });
    renderAt('/app/projects/5/units/create_multiple');
    const template = await screen.findByTestId('batch-template', {}, lazy);
    fireEvent.change(template, { target: { value: 'Shot' } });
    expect(await screen.findByText('The template must contain {count}')).toBeInTheDocument();
    expect(screen.getByTestId('batch-preview').textContent).toContain('Fix the fields above');

    fireEvent.change(template, { target: { value: '{project} shot {count}' } });
    fireEvent.change(screen.getByTestId('batch-count'), { target: { value: '12' } });
    fireEvent.change(screen.getByTestId('batch-start'), { target: { value: '0' } });
    fireEvent.change(screen.getByTestId('batch-step'), { target: { value: '10' } });
    await waitFor(() =>
      expect(screen.getAllByTestId('batch-preview-name').map((n) => n.textContent)).toEqual([
        'Shorts shot 0',
        'Shorts shot 10',
        'Shorts shot 20',
        'Shorts shot 30',
        'Shorts shot 40',
        'Shorts shot 110',
      ]),
    );
    expect(screen.getByTestId('batch-total').textContent).toBe('12 units');

    fireEvent.change(screen.getByTestId('batch-step'), { target: { value: '0' } });
    await waitFor(() => expect(screen.getByTestId('batch-preview').textContent).toContain('Fix the fields above'));
    fireEvent.click(screen.getByTestId('batch-submit'));
    expect(sent('POST', '/api/units/batch/')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('batch-step'), { target: { value: '10' } });
    fireEvent.click(screen.getByTestId('batch-submit'));
    await waitFor(() => expect(sent('POST', '/api/units/batch/')).toHaveLength(1), lazy);
    expect(sent('POST', '/api/units/batch/')[0]!.body).toEqual({
      project: 5,
      pipeline: 7,
      template: '{project} shot {count}',
      count: 12,
      start: 0,
      step: 10,
    });
    expect(await screen.findByText('12 units created', {}, lazy)).toBeInTheDocument();
    expect(await screen.findByTestId('matrix', {}, lazy)).toBeInTheDocument();
  });
});

const item = (id: number, over: Partial<TTaskListItem> = {}): TTaskListItem => ({
  id,
  workspace: 7,
  unit: { id: 3, name: `Shot ${id}` },
  stage: { id: 12, name: 'Compositing' },
  pipeline: { id: 7, name: 'Animation' },
  project: { id: 5, name: 'Shorts' },
  status: 'in_progress',
  ready: true,
  overdue: false,
  due_date: null,
  ...over,
});

describe('My work', () => {
  it('lists ready tasks, reviews and overdue tasks of the current workspace, with counts', async () => {
    const today = new Date();
    today.setHours(18, 0, 0, 0);
    serve('member', ({ method, url }) => {
      if (method !== 'GET' || !url.startsWith('/api/tasks/?')) return undefined;
      const q = new URL(url, 'http://x').searchParams;
      if (q.get('ready') === 'true')
        return json(200, {
          count: 2,
          next: null,
          next_cursor: null,
          results: [item(1, { due_date: today.toISOString() }), item(2)],
        });
      if (q.get('reviewer') === 'me')
        return json(200, { count: 1, next: null, next_cursor: null, results: [item(3, { status: 'review' })] });
      return json(200, { count: 0, next: null, next_cursor: null, results: [] });
    });
    renderAt('/app');
    const ready = await screen.findByTestId('my-work-ready', {}, lazy);
    await waitFor(() => expect(within(ready).getAllByTestId('my-work-item')).toHaveLength(2), lazy);
    expect(within(ready).getByTestId('my-work-ready-count').textContent).toBe('2');
    expect(within(ready).getAllByTestId('my-work-due')[0]!.textContent).toBe('Today');
    const link = within(ready).getByText('Shot 1 · Compositing');
    expect(link.closest('a')!.getAttribute('href')).toBe('/app/tasks/1');
    const review = screen.getByTestId('my-work-review');
    await waitFor(() => expect(within(review).getAllByTestId('my-work-item')).toHaveLength(1));
    const overdue = screen.getByTestId('my-work-overdue');
    expect((await within(overdue).findByTestId('my-work-overdue-empty')).textContent).toBe('Nothing is overdue.');

    const queries = calls
      .filter((c) => c.url.startsWith('/api/tasks/?'))
      .map((c) => new URL(c.url, 'http://x').searchParams);
    expect(queries.map((q) => Object.fromEntries(q))).toEqual(
      expect.arrayContaining([
        { workspace: '7', assignee: 'me', ready: 'true', workable: 'true', limit: '10' },
        { workspace: '7', reviewer: 'me', awaiting: 'true', limit: '10' },
        { workspace: '7', assignee: 'me', overdue: 'true', limit: '10' },
      ]),
    );
  });

  it("pages a section with 'Show more' from the answer's next cursor", async () => {
    serve('member', ({ method, url }) => {
      if (method !== 'GET' || !url.startsWith('/api/tasks/?')) return undefined;
      const q = new URL(url, 'http://x').searchParams;
      if (q.get('awaiting') !== 'true') return json(200, { count: 0, next: null, next_cursor: null, results: [] });
      // The cursor is opaque to the client; here it is the position to go on from.
      const offset = Number(q.get('after') ?? 0);
      const ids = Array.from({ length: Math.min(10, 25 - offset) }, (_, i) => 100 + offset + i);
      const next_cursor = offset + ids.length < 25 ? String(offset + ids.length) : null;
      return json(200, {
        count: 25,
        next: null,
        next_cursor,
        results: ids.map((id) => item(id, { status: 'review' })),
      });
    });
    renderAt('/app');
    const review = await screen.findByTestId('my-work-review', {}, lazy);
    await waitFor(() => expect(within(review).getAllByTestId('my-work-item')).toHaveLength(10), lazy);
    expect(within(review).getByText('Showing 10 of 25')).toBeInTheDocument();
    fireEvent.click(within(review).getByTestId('my-work-review-more'));
    await waitFor(() => expect(within(review).getAllByTestId('my-work-item')).toHaveLength(20));
    fireEvent.click(within(review).getByTestId('my-work-review-more'));
    await waitFor(() => expect(within(review).getAllByTestId('my-work-item')).toHaveLength(25));
    expect(within(review).queryByTestId('my-work-review-more')).toBeNull();
    expect(within(review).getByTestId('my-work-review-count').textContent).toBe('25');
    const cursors = calls
      .filter((c) => c.url.includes('awaiting=true'))
      .map((c) => new URL(c.url, 'http://x').searchParams.get('after'));
    expect(cursors).toEqual([null, '10', '20']);
  });
});
