import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TPipeline, TProject, TRole, TWorkspace } from '@stageline/shared';
import { queryClient } from '../../shared/api/query-client';
import { initI18n } from '../../shared/i18n';
import { useShellStore } from '../../shared/lib/shell-store';
import { Providers } from '../providers';
import { routes } from './routes';

/** Screens are lazy chunks: the first transform of a chunk can take longer than the default 1 s. */
const lazy = { timeout: 10_000 };
vi.setConfig({ testTimeout: 20_000 });

type TCall = { method: string; url: string; body: unknown };
type TRoute = (call: TCall) => Response | undefined;

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const me = {
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
};

const workspace = (id: number, role: TRole): TWorkspace => ({
  id,
  name: id === 7 ? 'Blue Studio' : 'Red Studio',
  description: '',
  owner: { id: 9, name: 'Olga', username: 'olga' },
  role,
  members_count: 3,
  created_at: '2024-01-01T00:00:00Z',
});

const project = (id: number, workspaceId: number, name: string): TProject => ({
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

const counters = { todo: 3, in_progress: 1, review: 0, edit: 0, done: 2, overdue: 1 };
const pipeline = (id: number, name: string): TPipeline => ({
  id,
  project: 5,
  name,
  description: 'From sketch to render',
  layout: 'vertical',
  version: 1,
  stages_count: 4,
  task_counters: counters,
  updated_at: '2024-02-01T10:00:00Z',
  nodes: [],
  edges: [],
  stage_counters: {},
});

let calls: TCall[];

/** A fake API: my role in workspace 7 is `role` (8: member); project 5 is in 7, project 6 in 8. */
function serve(role: TRole, route: TRoute = () => undefined) {
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
      if (get && url === '/api/projects/?workspace=7') return json(200, [project(5, 7, 'Shorts')]);
      if (get && url === '/api/projects/5/') return json(200, project(5, 7, 'Shorts'));
      if (get && url === '/api/projects/6/') return json(200, project(6, 8, 'Commercials'));
      if (get && url === '/api/pipelines/?project=5') return json(200, [pipeline(7, 'Animation')]);
      if (get && url === '/api/pipelines/7/') return json(200, pipeline(7, 'Animation'));
      return json(404, { detail: 'Not found.', code: 'not_found' });
    }),
  );
}

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

const sent = (method: string, url: string) => calls.filter((c) => c.method === method && c.url === url);

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

describe('projects', () => {
  it('lists the projects of a workspace; a guest sees no Create', async () => {
    serve('guest');
    renderAt('/app/workspaces/7');
    const row = await screen.findByTestId('project-row', {}, lazy);
    expect(row.getAttribute('data-id')).toBe('5');
    expect(row.textContent).toContain('Shorts');
    expect(row.textContent).toContain('2 pipelines');
    expect(row.textContent).toContain('14 units');
    expect(screen.queryByTestId('project-create-open')).toBeNull();
  });

  it('creates a project in the current workspace with its review defaults, then opens it', async () => {
    serve('member', ({ method, url }) =>
      method === 'POST' && url === '/api/projects/' ? json(201, project(11, 7, 'Trailers')) : undefined,
    );
    renderAt('/app/workspaces/7');
    fireEvent.click(await screen.findByTestId('project-create-open', {}, lazy));
    const name = await screen.findByTestId('project-create-name', {}, lazy);
    fireEvent.change(name, { target: { value: '  Trailers ' } });
    fireEvent.click(screen.getByTestId('project-create-skip-review'));
    fireEvent.click(screen.getByTestId('project-create-submit'));

    await waitFor(() => expect(sent('POST', '/api/projects/')).toHaveLength(1), lazy);
    expect(sent('POST', '/api/projects/')[0]!.body).toEqual({
      workspace: 7,
      name: 'Trailers',
      description: '',
      defaults: {
        review_mode: 'each_immediate',
        skip_review_if_no_reviewers: true,
        accept_edit_as_done: false,
        todo_enabled: true,
      },
    });
    expect((await screen.findByTestId('project-name', {}, lazy)).textContent).toBe('Trailers');
  });

  it("says 'Project not created' when the server refuses", async () => {
    serve('member', ({ method, url }) =>
      method === 'POST' && url === '/api/projects/' ? json(500, { detail: 'Boom', code: 'server_error' }) : undefined,
    );
    renderAt('/app/projects/create');
    fireEvent.change(await screen.findByTestId('project-create-name', {}, lazy), { target: { value: 'X' } });
    fireEvent.click(screen.getByTestId('project-create-submit'));
    expect((await screen.findByTestId('project-create-error', {}, lazy)).textContent).toBe('Project not created');
  });

  it('tells a guest on the create screen that the role does not allow it', async () => {
    serve('guest');
    renderAt('/app/projects/create');
    expect(await screen.findByTestId('project-create-denied', {}, lazy)).toBeTruthy();
    expect(screen.queryByTestId('project-create-submit')).toBeNull();
  });

  it('lets a guest open a project but offers neither Edit nor Delete', async () => {
    serve('guest');
    renderAt('/app/projects/5');
    expect((await screen.findByTestId('project-name', {}, lazy)).textContent).toBe('Shorts');
    expect(screen.getByTestId('project-pipelines-count').textContent).toBe('2');
    expect(screen.getByTestId('project-units-count').textContent).toBe('14');
    expect(screen.getByTestId('project-defaults').textContent).toContain('Each reviewer, wait');
    expect(screen.queryByTestId('project-edit-open')).toBeNull();
    expect(screen.queryByTestId('project-delete')).toBeNull();
  });

  it('offers Edit and Delete to an admin', async () => {
    serve('admin');
    renderAt('/app/projects/5');
    expect(await screen.findByTestId('project-edit-open', {}, lazy)).toBeTruthy();
    expect(await screen.findByTestId('project-delete', {}, lazy)).toBeTruthy();
  });

  it('stores lastProject and switches to the workspace of a project from another one', async () => {
    serve('admin');
    renderAt('/app/projects/6');
    expect((await screen.findByTestId('project-name', {}, lazy)).textContent).toBe('Commercials');
    await waitFor(() => expect(localStorage.getItem('current_workspace')).toBe('8'), lazy);
    expect(localStorage.getItem('lastProject')).toBe('6');
    await waitFor(() => expect(sent('PATCH', '/api/users/1/')).toHaveLength(1), lazy);
    expect(sent('PATCH', '/api/users/1/')[0]!.body).toEqual({ recent_workspace: 8 });
  });

  it('does not switch for a project of the current workspace', async () => {
    serve('admin');
    renderAt('/app/projects/5');
    await screen.findByTestId('project-name', {}, lazy);
    await waitFor(() => expect(localStorage.getItem('lastProject')).toBe('5'), lazy);
    expect(localStorage.getItem('current_workspace')).toBe('7');
    expect(sent('PATCH', '/api/users/1/')).toHaveLength(0);
  });

  it("goes home with 'Error wile loading data' for a project that does not exist", async () => {
    serve('admin');
    const router = renderAt('/app/projects/404');
    expect(await screen.findByText('Error wile loading data: Project 404', {}, lazy)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'), lazy);
  });

  it('edits a project and deletes it (admin), going to its workspace', async () => {
    serve('admin', ({ method, url }) => {
      if (method === 'PATCH' && url === '/api/projects/5/') return json(200, project(5, 7, 'Shorts 2'));
      if (method === 'DELETE' && url === '/api/projects/5/') return json(204, null);
      return undefined;
    });
    const router = renderAt('/app/projects/5/edit');
    const name = await screen.findByTestId('project-edit-name', {}, lazy);
    expect((name as HTMLInputElement).value).toBe('Shorts');
    fireEvent.change(name, { target: { value: 'Shorts 2' } });
    fireEvent.click(screen.getByTestId('project-edit-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5'), lazy);
    expect(sent('PATCH', '/api/projects/5/')[0]!.body).toMatchObject({ name: 'Shorts 2' });
    expect(await screen.findByText('Saved', {}, lazy)).toBeTruthy();
    expect((await screen.findByTestId('project-name', {}, lazy)).textContent).toBe('Shorts 2');

    fireEvent.click(await screen.findByTestId('project-delete', {}, lazy));
    fireEvent.click(await screen.findByTestId('record-delete-confirm', {}, lazy));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces/7'), lazy);
    expect(sent('DELETE', '/api/projects/5/')).toHaveLength(1);
    expect(await screen.findByText('Deleted', {}, lazy)).toBeTruthy();
  });
});

describe('pipelines', () => {
  it('lists pipelines with counters; a row opens the pipeline; a guest sees no Create', async () => {
    serve('guest');
    const router = renderAt('/app/projects/5/pipelines');
    const row = await screen.findByTestId('pipeline-row', {}, lazy);
    expect(row.getAttribute('data-id')).toBe('7');
    expect(within(row).getByTestId('pipeline-stages-count').textContent).toBe('4');
    expect(within(row).getByTestId('pipeline-counter-todo').textContent).toBe('To do: 3');
    expect(within(row).getByTestId('pipeline-counter-overdue').textContent).toBe('Overdue: 1');
    expect(within(row).queryByTestId('pipeline-counter-review')).toBeNull();
    expect(screen.queryByTestId('pipeline-create-open')).toBeNull();
    fireEvent.click(within(row).getByTestId('pipeline-stages-count'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5/pipelines/7'), lazy);
  });

  it('creates a pipeline and opens the flow editor', async () => {
    serve('member', ({ method, url }) =>
      method === 'POST' && url === '/api/pipelines/' ? json(201, { ...pipeline(12, 'Lighting') }) : undefined,
    );
    const router = renderAt('/app/projects/5/pipelines');
    fireEvent.click(await screen.findByTestId('pipeline-create-open', {}, lazy));
    fireEvent.change(await screen.findByTestId('pipeline-create-name', {}, lazy), { target: { value: 'Lighting' } });
    fireEvent.click(within(screen.getByTestId('pipeline-create-layout')).getByText('Horizontal'));
    fireEvent.click(screen.getByTestId('pipeline-create-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5/pipelines/12/edit_flow'), lazy);
    expect(sent('POST', '/api/pipelines/')[0]!.body).toEqual({
      project: 5,
      name: 'Lighting',
      description: '',
      layout: 'horizontal',
    });
  });

  it('shows Home › project name › pipeline name › Edit, and deletes (admin) back to the list', async () => {
    serve('admin', ({ method, url }) =>
      method === 'DELETE' && url === '/api/pipelines/7/' ? json(204, null) : undefined,
    );
    const router = renderAt('/app/projects/5/pipelines/7/edit');
    expect((await screen.findByTestId<HTMLInputElement>('pipeline-edit-name', {}, lazy)).value).toBe('Animation');

    const crumbs = screen.getByTestId('breadcrumbs');
    await waitFor(() => expect(crumbs.textContent).toMatch(/^Home.*Shorts.*Animation.*Edit$/), lazy);
    const links = within(crumbs).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/app'],
      ['Shorts', '/app/projects/5'],
      ['Animation', '/app/projects/5/pipelines/7'],
    ]);

    fireEvent.click(screen.getByTestId('pipeline-delete'));
    fireEvent.click(await screen.findByTestId('record-delete-confirm', {}, lazy));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5/pipelines'), lazy);
    expect(sent('DELETE', '/api/pipelines/7/')).toHaveLength(1);
  });

  it('saves a pipeline as a member (no Delete offered), then opens it', async () => {
    serve('member', ({ method, url }) =>
      method === 'PATCH' && url === '/api/pipelines/7/' ? json(200, pipeline(7, 'Animation 2')) : undefined,
    );
    const router = renderAt('/app/projects/5/pipelines/7/edit');
    const name = await screen.findByTestId<HTMLInputElement>('pipeline-edit-name', {}, lazy);
    await waitFor(() => expect(sent('GET', '/api/workspaces/7/')).toHaveLength(1), lazy);
    expect(screen.queryByTestId('pipeline-delete')).toBeNull();
    fireEvent.change(name, { target: { value: 'Animation 2' } });
    fireEvent.click(screen.getByTestId('pipeline-edit-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5/pipelines/7'), lazy);
    expect(sent('PATCH', '/api/pipelines/7/')[0]!.body).toEqual({
      name: 'Animation 2',
      description: 'From sketch to render',
      layout: 'vertical',
    });
  });
});
