import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import {
  TaskStatuses,
  WholeMatrixCellFields,
  type TMatrixPage,
  type TMe,
  type TPipeline,
  type TProject,
  type TRole,
  type TWholeMatrixAnswer,
  type TWorkspace,
} from '@stageline/shared';
import { Providers } from '../src/app/providers';
import { routes } from '../src/app/routing/routes';
import { queryClient } from '../src/shared/api/query-client';
import { initI18n } from '../src/shared/i18n';
import { useShellStore } from '../src/shared/lib/shell-store';
import { servedWorkspace } from './served';

/**
 * A signed-in app on a fake API, for render tests of whole screens: `serve(role, route)` answers
 * the common calls (me, workspaces 7 and 8, project 5 in 7 and 6 in 8, pipeline 7) and lets a
 * test answer others first; `renderAt(path)` renders the real routes.
 */
/** Screens are lazy chunks: the first transform of a chunk can take longer than the default 1 s. */
export const lazy = { timeout: 10_000 };
vi.setConfig({ testTimeout: 20_000 });

export type TCall = { method: string; url: string; body: unknown };
/** An answer for a call, or undefined for the defaults; a promise holds the answer back until it settles. */
export type TRoute = (call: TCall) => Response | Promise<Response> | undefined;

export const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

export const me = {
  id: 1,
  username: 'ada',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: '',
  language: 'en',
  two_factor: false,
  recent_workspace: 7,
  avatar: null,
  workspaces: [7, 8],
  has_password: true,
  oauth_accounts: [],
  notify_browser: false,
  email_frequency: 'daily',
  onboarding: 'done',
  time_zone: 'UTC',
} satisfies TMe;

export const workspace = (id: number, role: TRole): TWorkspace =>
  servedWorkspace({
    id,
    name: id === 7 ? 'Blue Studio' : 'Red Studio',
    description: '',
    owner: role === 'owner' ? { id: 1, name: 'Ada', username: 'ada' } : { id: 9, name: 'Olga', username: 'olga' },
    role,
    members_count: 3,
    created_at: '2024-01-01T00:00:00Z',
  });

export const project = (id: number, workspaceId: number, name: string): TProject => ({
  id,
  workspace: workspaceId,
  name,
  description: 'Short films',
  defaults: {
    review_mode: 'each_wait',
    skip_review_if_no_reviewers: true,
    accept_edit_as_done: false,
    todo_enabled: true,
  },
  pipelines_count: 2,
  units_count: 14,
  created_at: '2024-01-01T00:00:00Z',
});

export const counters = { todo: 3, in_progress: 1, review: 0, edit: 0, done: 2, overdue: 1 };
export const pipeline = (id: number, name: string): TPipeline => ({
  id,
  project: 5,
  name,
  description: 'From sketch to render',
  layout: 'vertical',
  version: 1,
  stages_count: 4,
  units_count: 1,
  task_counters: counters,
  updated_at: '2024-02-01T10:00:00Z',
  nodes: [],
  edges: [],
  stage_counters: {},
});

/**
 * A page of the matrix as `GET units/matrix/whole/` sends the same rows: what the matrix screen
 * loads for pipelines up to `WholeMatrixUnits`.
 */
export function wholeOf(page: TMatrixPage, pipelineId = 7): TWholeMatrixAnswer {
  const tasks = page.rows.flatMap((row) => row.tasks.map((task) => ({ unit: row.unit.id, task })));
  return {
    pipeline: pipelineId,
    count: page.count,
    stages: page.stages.map((stage) => ({ ...stage, assignees: [], teams: [] })),
    statuses: [...TaskStatuses],
    cell: [...WholeMatrixCellFields],
    people: [],
    units: page.rows.map((row) => [row.unit.id, row.unit.name]),
    // Each task with its own assignees (`own`), so they are the page's as they are.
    cells: tasks.map(({ unit, task }) => [
      unit,
      task.stage,
      task.id,
      TaskStatuses.indexOf(task.status),
      task.ready ? 1 : 0,
      task.overdue ? 1 : 0,
      task.due_date === null ? null : Date.parse(task.due_date),
      1,
    ]),
    assignees: Object.fromEntries(tasks.map(({ task }) => [task.id, task.assignees])),
    teams: {},
    files: Object.fromEntries(tasks.filter(({ task }) => task.files > 0).map(({ task }) => [task.id, task.files])),
  };
}

export let calls: TCall[];

/** A fake API: my role in workspace 7 is `role` (8: member); project 5 is in 7, project 6 in 8. */
export function serve(role: TRole, route: TRoute = () => undefined) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = {
        method: init.method ?? 'GET',
        url,
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      };
      calls.push(call);
      const answer = route(call);
      if (answer) return answer;
      const get = call.method === 'GET';
      if (url === '/api/users/me/') return json(200, me);
      if (call.method === 'PATCH' && url === '/api/users/1/') return json(200, { ...me, recent_workspace: 8 });
      if (get && url === '/api/workspaces/') return json(200, [workspace(7, role), workspace(8, 'member')]);
      if (get && url === '/api/workspaces/7/') return json(200, workspace(7, role));
      if (get && url === '/api/workspaces/8/') return json(200, workspace(8, 'member'));
      if (get && url === '/api/invites/') return json(200, []);
      // No invite link is a null, not a 404 (decision 195).
      if (get && /^\/api\/workspaces\/\d+\/link\/$/.test(url)) return json(200, null);
      if (get && /^\/api\/workspaces\/\d+\/file_types\/$/.test(url))
        return json(200, { allowed: ['media', 'documents', 'archives'] });
      if (get && url === '/api/projects/?workspace=7') return json(200, [project(5, 7, 'Shorts')]);
      if (get && url === '/api/projects/5/') return json(200, project(5, 7, 'Shorts'));
      if (get && url === '/api/projects/6/') return json(200, project(6, 8, 'Commercials'));
      if (get && url === '/api/pipelines/?project=5') return json(200, [pipeline(7, 'Animation')]);
      // The screens that pick a pipeline ask without the task counters (decision 120).
      if (get && url === '/api/pipelines/?project=5&counters=false') {
        const { task_counters: _counted, ...named } = pipeline(7, 'Animation');
        return json(200, [named]);
      }
      if (get && url === '/api/pipelines/7/') return json(200, pipeline(7, 'Animation'));
      return json(404, { detail: 'Not found.', code: 'not_found' });
    }),
  );
}

export function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

export const sent = (method: string, url: string) => calls.filter((c) => c.method === method && c.url === url);

/** Registers the hooks every harness test file needs: English, a clean shell, a session. */
export function setupAppHarness(): void {
  beforeAll(async () => {
    await initI18n().changeLanguage('en');
  });

  beforeEach(() => {
    useShellStore.setState({ maintenance: false, fatalError: null, pageError: null, loadingLabel: null });
    queryClient.clear();
    localStorage.setItem('authTokens', JSON.stringify({ access: 'a1', refresh: 'r1' }));
    localStorage.setItem('current_workspace', '7');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });
}
