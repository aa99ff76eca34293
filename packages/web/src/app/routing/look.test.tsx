import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TMatrixPage, TPipeline, TProjectWorkload, TWorkspaceUser } from '@stageline/shared';
import { counters, json, lazy, pipeline, renderAt, serve, setupAppHarness, wholeOf } from '../../../test/app-harness';
import { buildPipeline } from '../../../test/pipelines';

setupAppHarness();

const person = (id: number, name: string): TWorkspaceUser => ({
  user_id: id,
  invite_id: null,
  name,
  username: name.toLowerCase().replace(' ', '.'),
  email: null,
  role: 'member',
  status: 'accepted',
  inviter_name: null,
  invited_by: null,
  abilities: { change_role: false, remove: false },
});
const team = [person(2, 'Ada Lovelace'), person(3, 'Boris Petrov'), person(4, 'Chen Wu')];

const workload: TProjectWorkload = {
  people: [
    { user_id: 2, name: 'Ada Lovelace', open: 5, overdue: 1 },
    { user_id: 3, name: 'Boris Petrov', open: 2, overdue: 0 },
  ],
};

describe('the project overview', () => {
  it('shows each pipeline’s progress in the status palette, overdue, and who is loaded', async () => {
    const empty: TPipeline = {
      ...pipeline(8, 'Sound'),
      task_counters: { ...counters, todo: 0, done: 0, in_progress: 0, overdue: 0 },
    };
    serve('member', ({ method, url }) => {
      if (method !== 'GET') return undefined;
      if (url === '/api/pipelines/?project=5') return json(200, [pipeline(7, 'Animation'), empty]);
      if (url === '/api/projects/5/workload/') return json(200, workload);
      if (url === '/api/pipelines/7/') return json(200, detail);
      return undefined;
    });
    // Its stages (ids 10, 11 in flow order), each with its own tasks, read when opened.
    const base = buildPipeline({ stages: 2 });
    const detail: TPipeline = {
      ...base,
      nodes: base.nodes.map((node) => (node.kind === 'stage' ? { ...node, name: `Stage ${node.id}` } : node)),
      stage_counters: {
        '10': { ...counters, todo: 0, in_progress: 0, done: 3, overdue: 0 },
        '11': { ...counters, todo: 3, done: 0, in_progress: 0, overdue: 1 },
      },
    };
    renderAt('/app/projects/5');
    const cards = await screen.findAllByTestId('project-overview-pipeline', {}, lazy);
    expect(cards.map((card) => card.getAttribute('data-id'))).toEqual(['7', '8']);
    // counters: 3 to do, 1 in progress, 2 done (6 tasks), 1 overdue.
    expect(within(cards[0]!).getByTestId('project-overview-done')).toHaveTextContent('2 of 6 tasks done · 33%');
    expect(within(cards[0]!).getByTestId('project-overview-overdue')).toHaveTextContent('Overdue: 1');
    const bar = within(cards[0]!).getByTestId('project-overview-bar');
    const sections = [...bar.querySelectorAll('[data-status]')];
    expect(sections.map((s) => s.getAttribute('data-status'))).toEqual(['done', 'in_progress', 'todo']);
    expect(sections.map((s) => s.getAttribute('aria-label'))).toEqual(['Done: 2', 'Work in progress: 1', 'To do: 3']);
    // No overdue badge where nothing is overdue; an empty pipeline has an empty bar.
    expect(within(cards[1]!).queryByTestId('project-overview-overdue')).toBeNull();
    expect(within(cards[1]!).getByTestId('project-overview-bar').getAttribute('data-total')).toBe('0');
    // Per stage, on demand, in flow order.
    fireEvent.click(within(cards[0]!).getByTestId('project-overview-stages-toggle'));
    const stages = await within(cards[0]!).findAllByTestId('project-overview-stage');
    expect(stages.map((row) => row.textContent)).toEqual(['Stage 103/3 done', 'Stage 110/3 done · Overdue: 1']);
    const people = await screen.findAllByTestId('project-workload-person');
    expect(people.map((p) => p.textContent)).toEqual(['ALAda Lovelace5 open', 'BPBoris Petrov2 open']);
  });

  it('with no pipeline, teaches what one is and offers to create it', async () => {
    serve('member', ({ method, url }) =>
      method === 'GET' && url === '/api/pipelines/?project=5' ? json(200, []) : undefined,
    );
    renderAt('/app/projects/5');
    const empty = await screen.findByTestId('project-overview-empty', {}, lazy);
    expect(empty).toHaveTextContent('A pipeline is the chain of stages every unit goes through');
    expect(within(empty).getByTestId('project-overview-create-pipeline')).toHaveAttribute(
      'href',
      '/app/projects/5/pipelines/create',
    );
  });
});

describe('the pipeline list', () => {
  it('draws each pipeline’s tasks as a status bar beside the counters', async () => {
    serve('member');
    renderAt('/app/projects/5/pipelines');
    const bar = await screen.findByTestId('pipeline-row-bar', {}, lazy);
    expect(bar.getAttribute('data-total')).toBe('6');
    expect([...bar.querySelectorAll('[data-status]')].map((s) => s.getAttribute('data-status'))).toEqual([
      'done',
      'in_progress',
      'todo',
    ]);
  });
});

describe('empty lists teach', () => {
  it('the pipeline list says what a pipeline is', async () => {
    serve('member', ({ method, url }) =>
      method === 'GET' && url === '/api/pipelines/?project=5' ? json(200, []) : undefined,
    );
    renderAt('/app/projects/5/pipelines');
    expect(await screen.findByTestId('pipeline-list-empty', {}, lazy)).toHaveTextContent(
      'No pipelines yet.A pipeline is the chain of stages',
    );
  });

  it('the matrix says what a unit is and offers to create units', async () => {
    serve('member', ({ method, url }) =>
      method === 'GET' && url.startsWith('/api/units/matrix/')
        ? json(200, wholeOf({ count: 0, next_cursor: null, stages: [], rows: [] }))
        : undefined,
    );
    renderAt('/app/projects/5/units?pipeline=7');
    const empty = await screen.findByTestId('matrix-empty', {}, lazy);
    expect(empty).toHaveTextContent('A unit is one thing you make');
    expect(within(empty).getByTestId('unit-create-open')).toBeInTheDocument();
  });
});

describe('the matrix', () => {
  it('shows the assignees of a cell as initials, two and a "+n", and row titles as titles', async () => {
    const page: TMatrixPage = {
      count: 1,
      next_cursor: null,
      stages: [{ id: 10, name: 'Layout' }],
      rows: [
        {
          unit: { id: 1000, name: 'Shot 1', fields: {} },
          tasks: [
            {
              id: 1,
              stage: 10,
              status: 'review',
              ready: true,
              overdue: false,
              due_date: null,
              assignees: [2, 3, 4],
              files: 2,
            },
          ],
        },
      ],
    };
    serve('member', ({ method, url }) => {
      if (method !== 'GET') return undefined;
      if (url.startsWith('/api/units/matrix/whole/')) return json(200, wholeOf(page));
      if (url === '/api/workspaces/7/users/') return json(200, team);
      return undefined;
    });
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
    renderAt('/app/projects/5/units?pipeline=7');
    const cell = await screen.findByTestId('matrix-cell', {}, lazy);
    await waitFor(() => expect(within(cell).getByTestId('matrix-cell-assignees')).toHaveTextContent('ALBP+1'));
    expect(cell.getAttribute('title')).toContain('Ada Lovelace, Boris Petrov, Chen Wu');
    expect(screen.getByTestId('matrix-unit-link').className).toMatch(/unitLink/);
  });
});
