import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TBulkResult, TRole, TWorkspace, TWorkspaceUser } from '@stageline/shared';
import { servedMe, servedMember, servedWorkspace } from '../../../test/served';
import { queryClient } from '../../shared/api/query-client';
import { initI18n } from '../../shared/i18n';
import { useShellStore } from '../../shared/lib/shell-store';
import { Providers } from '../providers';
import { routes } from './routes';

/** Screens are lazy chunks: the first transform of a chunk can take longer than the default 1 s. */
const lazy = { timeout: 10_000 };

// The settings screen is the largest chunk: its first transform in a cold run takes seconds.
vi.setConfig({ testTimeout: 20_000 });

type TCall = { method: string; url: string; body: unknown };
type TRoute = (call: TCall) => Response | undefined;

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const me = servedMe({ workspaces: [7] });

const workspace = (role: TRole): TWorkspace =>
  servedWorkspace({
    id: 7,
    name: 'Blue Studio',
    description: 'Animation team',
    owner: { id: role === 'owner' ? 1 : 9, name: role === 'owner' ? 'Ada' : 'Olga', username: 'olga' },
    role,
    members_count: 3,
    created_at: '2024-01-01T00:00:00Z',
  });

const member = (user_id: number, name: string, role: TRole): Omit<TWorkspaceUser, 'abilities'> => ({
  user_id,
  invite_id: null,
  name,
  username: name.toLowerCase(),
  email: `${name.toLowerCase()}@example.com`,
  role,
  status: 'accepted',
  inviter_name: role === 'owner' ? null : 'Olga',
  invited_by: role === 'owner' ? null : 'user',
});

const team = (myRole: TRole): TWorkspaceUser[] =>
  [
    member(9, 'Olga', myRole === 'owner' ? 'admin' : 'owner'),
    member(1, 'Ada', myRole),
    member(2, 'Bob', 'member'),
    member(3, 'Cleo', 'guest'),
    { ...member(4, 'Dan', 'member'), user_id: null, invite_id: 40, status: 'pending' as const, username: null },
  ].map((user) => servedMember(user, myRole));

let calls: TCall[];

/** A fake API: `route` answers what the test is about; users/me/, the workspace and its team are given. */
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
      if (url === '/api/users/me/') return json(200, me);
      if (call.method === 'GET' && url === '/api/workspaces/') return json(200, [workspace(role)]);
      if (call.method === 'GET' && url === '/api/workspaces/7/') return json(200, workspace(role));
      if (call.method === 'GET' && url === '/api/workspaces/7/users/') return json(200, team(role));
      if (call.method === 'GET' && url === '/api/invites/') return json(200, []);
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

const rowOf = (username: string) =>
  screen.getAllByTestId('team-row').find((row) => row.getAttribute('data-username') === username)!;
const checkboxOf = (username: string) => within(rowOf(username)).getByTestId('team-select');
const posts = (suffix: string) => calls.filter((c) => c.method === 'POST' && c.url.endsWith(suffix));

beforeAll(async () => {
  await initI18n().changeLanguage('en');
});

beforeEach(() => {
  useShellStore.setState({ maintenance: false, fatalError: null, pageError: null, loadingLabel: null });
  queryClient.clear();
  localStorage.setItem('authTokens', JSON.stringify({ access: 'a1', refresh: 'r1' }));
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('team bulk actions', () => {
  it('reports the counts and each failure of a partial role change', async () => {
    const result: TBulkResult = { succeeded: 1, failed: 1, errors: [{ user: 3, detail: 'Not allowed.' }] };
    serve('admin', ({ method, url }) =>
      method === 'POST' && url === '/api/workspaces/7/set_roles/' ? json(200, result) : undefined,
    );
    renderAt('/app/workspaces/7/settings/people');
    await screen.findAllByTestId('team-row', {}, lazy);

    expect(checkboxOf('olga').hasAttribute('disabled')).toBe(true); // the owner
    fireEvent.click(checkboxOf('bob'));
    fireEvent.click(checkboxOf('cleo'));
    fireEvent.click(screen.getByTestId('bulk-role-apply'));

    expect(await screen.findByText('1 user updated', {}, lazy)).toBeInTheDocument();
    expect(screen.getByText('1 user not updated')).toBeInTheDocument();
    expect(screen.getByText('Can not change role for Cleo: Not allowed.')).toBeInTheDocument();
    expect(posts('/set_roles/')[0]!.body).toEqual({ users: [2, 3], role: 'member' });
  });

  it('reports removals with plural counts', async () => {
    const result: TBulkResult = {
      succeeded: 2,
      failed: 0,
      errors: [],
    };
    serve('admin', ({ method, url }) =>
      method === 'POST' && url === '/api/workspaces/7/remove_users/' ? json(200, result) : undefined,
    );
    renderAt('/app/workspaces/7/settings/people');
    await screen.findAllByTestId('team-row', {}, lazy);
    fireEvent.click(checkboxOf('bob'));
    fireEvent.click(checkboxOf('cleo'));
    fireEvent.click(screen.getByTestId('bulk-remove'));
    expect(await screen.findByText('2 users removed', {}, lazy)).toBeInTheDocument();
    expect(posts('/remove_users/')[0]!.body).toEqual({ users: [2, 3] });
  });

  it('asks before removing yourself, and does nothing when cancelled', async () => {
    serve('admin', ({ method, url }) =>
      method === 'POST' && url === '/api/workspaces/7/remove_users/'
        ? json(200, { succeeded: 2, failed: 0, errors: [] })
        : undefined,
    );
    const router = renderAt('/app/workspaces/7/settings/people');
    await screen.findAllByTestId('team-row', {}, lazy);

    fireEvent.click(checkboxOf('ada'));
    fireEvent.click(checkboxOf('bob'));
    fireEvent.click(screen.getByTestId('bulk-remove'));
    expect(await screen.findByText('Remove yourself?', {}, lazy)).toBeInTheDocument();
    expect(posts('/remove_users/')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('self-confirm-cancel'));
    await waitFor(() => expect(screen.queryByText('Remove yourself?')).toBeNull());
    expect(posts('/remove_users/')).toHaveLength(0);

    localStorage.setItem('current_workspace', '7');
    fireEvent.click(screen.getByTestId('bulk-remove'));
    fireEvent.click(await screen.findByTestId('self-confirm-ok', {}, lazy));
    await waitFor(() => expect(posts('/remove_users/')).toHaveLength(1), lazy);
    expect(posts('/remove_users/')[0]!.body).toEqual({ users: [1, 2] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces'), lazy);
    expect(localStorage.getItem('current_workspace')).toBeNull();
  });

  it('asks before changing your own role', async () => {
    serve('admin');
    renderAt('/app/workspaces/7/settings/people');
    await screen.findAllByTestId('team-row', {}, lazy);
    fireEvent.click(checkboxOf('ada'));
    fireEvent.click(screen.getByTestId('bulk-role-apply'));
    expect(await screen.findByText('Change your own role?', {}, lazy)).toBeInTheDocument();
    expect(posts('/set_roles/')).toHaveLength(0);
  });
});

describe('deleting a workspace', () => {
  it('requires the confirmation text exactly, then deletes and forgets the current workspace', async () => {
    serve('owner', ({ method, url }) =>
      method === 'DELETE' && url === '/api/workspaces/7/' ? json(204, null) : undefined,
    );
    localStorage.setItem('current_workspace', '7');
    const router = renderAt('/app/workspaces/7/settings/danger-zone');
    fireEvent.click(await screen.findByTestId('delete-open', {}, lazy));
    expect((await screen.findByTestId('delete-confirm-text', {}, lazy)).textContent).toBe('Blue Studio');

    fireEvent.change(screen.getByTestId('delete-confirm-input'), { target: { value: 'blue studio' } });
    fireEvent.click(screen.getByTestId('delete-confirm-submit'));
    expect(await screen.findByText('Confirmation text is invalid', {}, lazy)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('delete-confirm-input'), { target: { value: 'Blue Studio' } });
    fireEvent.click(screen.getByTestId('delete-confirm-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces'), lazy);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/workspaces/7/']);
    expect(localStorage.getItem('current_workspace')).toBeNull();
    expect(await screen.findByText('Workspace deleted', {}, lazy)).toBeInTheDocument();
  });

  it('says "Workspace was not deleted, server error" on a 500', async () => {
    serve('owner', ({ method, url }) =>
      method === 'DELETE' && url === '/api/workspaces/7/' ? json(500, { detail: 'boom' }) : undefined,
    );
    renderAt('/app/workspaces/7/settings/danger-zone');
    fireEvent.click(await screen.findByTestId('delete-open', {}, lazy));
    fireEvent.change(await screen.findByTestId('delete-confirm-input', {}, lazy), { target: { value: 'Blue Studio' } });
    fireEvent.click(screen.getByTestId('delete-confirm-submit'));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true), lazy);
    expect(await screen.findByText('Workspace was not deleted, server error', {}, lazy)).toBeInTheDocument();
  });
});

describe('role-based hiding', () => {
  it('shows a guest no settings, invite, link, bulk or owner controls', async () => {
    serve('guest');
    renderAt('/app/workspaces/7');
    expect(await screen.findByText('Blue Studio', { selector: 'h1' }, lazy)).toBeInTheDocument();
    expect(screen.getByTestId('workspace-my-role').textContent).toBe('Guest');
    expect(screen.queryByTestId('workspace-settings-open')).toBeNull();
    expect(screen.getByTestId('leave-workspace')).toBeInTheDocument();
  });

  it('keeps the settings screen read-only for a guest: People and Danger zone only', async () => {
    serve('guest');
    const router = renderAt('/app/workspaces/7/settings');
    await screen.findAllByTestId('team-row', {}, lazy);
    // A guest changes nothing of the workspace: no General tab, /settings opens People.
    expect(screen.getByTestId('workspace-settings-tabs').getAttribute('data-active')).toBe('people');
    expect(screen.queryByTestId('workspace-settings-tab-general')).toBeNull();
    expect(screen.queryByTestId('workspace-settings-tab-integrations')).toBeNull();
    for (const id of [
      'workspace-edit-section',
      'team-select',
      'bulk-remove',
      'bulk-role-apply',
      'invite-users-input',
      'link-generate',
      'team-resend',
    ]) {
      expect(screen.queryAllByTestId(id), id).toHaveLength(0);
    }
    expect(calls.some((c) => c.url.endsWith('/link/'))).toBe(false);
    fireEvent.click(screen.getByTestId('workspace-settings-tab-danger-zone'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces/7/settings/danger-zone'));
    expect(await screen.findByTestId('leave-workspace', {}, lazy)).toBeInTheDocument();
    expect(screen.queryByTestId('delegate-select')).toBeNull();
    expect(screen.queryByTestId('delete-open')).toBeNull();
    // A tab the guest does not have: back to the first one.
    await router.navigate('/app/workspaces/7/settings/general');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces/7/settings'));
  });

  it('shows an admin everything but the owner actions, a tab at a time, Back going to the tab before', async () => {
    serve('admin');
    const router = renderAt('/app/workspaces/7/settings');
    expect(await screen.findByTestId('workspace-edit-section', {}, lazy)).toBeInTheDocument();
    expect(screen.queryByTestId('team-row')).toBeNull();
    fireEvent.click(screen.getByTestId('workspace-settings-tab-people'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces/7/settings/people'));
    await screen.findAllByTestId('team-row', {}, lazy);
    expect(screen.queryByTestId('workspace-edit-section')).toBeNull();
    expect(screen.getByTestId('invite-users-input')).toBeInTheDocument();
    expect(screen.getByTestId('link-generate')).toBeInTheDocument();
    expect(screen.getAllByTestId('team-resend')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('workspace-settings-tab-danger-zone'));
    expect(await screen.findByTestId('leave-workspace', {}, lazy)).toBeInTheDocument();
    expect(screen.queryByTestId('delete-open')).toBeNull();
    expect(screen.queryByTestId('delegate-select')).toBeNull();
    await router.navigate(-1);
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces/7/settings/people'));
    await waitFor(() =>
      expect(screen.getByTestId('workspace-settings-tabs').getAttribute('data-active')).toBe('people'),
    );
    expect(await screen.findAllByTestId('team-row', {}, lazy)).not.toHaveLength(0);
  });
});

describe('workspace list and switching', () => {
  it('switches on click: saves recent_workspace, stores it, opens the workspace', async () => {
    serve('member', ({ method, url }) => (method === 'PATCH' && url === '/api/users/1/' ? json(200, {}) : undefined));
    const router = renderAt('/app/workspaces');
    fireEvent.click(await screen.findByTestId('workspace-card', {}, lazy));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces/7'), lazy);
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ recent_workspace: 7 });
    expect(localStorage.getItem('current_workspace')).toBe('7');
  });

  it('lists workspaces in natural order, numbers by value', async () => {
    const named = (id: number, name: string): TWorkspace => ({ ...workspace('member'), id, name });
    serve('member', ({ method, url }) =>
      method === 'GET' && url === '/api/workspaces/'
        ? json(200, [named(7, 'Season 10'), named(8, 'Season 9'), named(9, 'Season 100')])
        : undefined,
    );
    renderAt('/app/workspaces');
    await screen.findAllByTestId('workspace-card', {}, lazy);
    expect(screen.getAllByTestId('workspace-card').map((card) => card.textContent)).toEqual([
      expect.stringContaining('Season 9'),
      expect.stringContaining('Season 10'),
      expect.stringContaining('Season 100'),
    ]);
  });

  it('adopts recent_workspace on sign-in when none is stored', async () => {
    serve('member', ({ url }) => (url === '/api/users/me/' ? json(200, { ...me, recent_workspace: 7 }) : undefined));
    const router = renderAt('/app');
    expect(await screen.findByText('My work', { selector: 'h1' }, lazy)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/app');
    await waitFor(() => expect(localStorage.getItem('current_workspace')).toBe('7'), lazy);
  });

  it("keeps a workspace chosen in another tab that this tab's list predates; forgets one a fresh list lacks", async () => {
    const eight: TWorkspace = { ...workspace('owner'), id: 8, name: 'Made elsewhere' };
    let listed: TWorkspace[] = [workspace('member')];
    serve('member', ({ method, url }) =>
      method === 'GET' && url === '/api/workspaces/' ? json(200, listed) : undefined,
    );
    renderAt('/app/workspaces');
    expect(await screen.findByTestId('workspace-card', {}, lazy)).toBeInTheDocument();
    const listFetches = () => calls.filter((c) => c.method === 'GET' && c.url === '/api/workspaces/').length;
    const before = listFetches();

    // Another tab created workspace 8 and switched to it: this tab's list does not have it yet.
    listed = [workspace('member'), eight];
    localStorage.setItem('current_workspace', '8');
    window.dispatchEvent(new StorageEvent('storage', { key: 'current_workspace', newValue: '8' }));
    await waitFor(() => expect(listFetches()).toBeGreaterThan(before), lazy);
    // Listed now, and the header's switcher shows it as the current workspace.
    await waitFor(() => expect(screen.getAllByText('Made elsewhere').length).toBeGreaterThan(1), lazy);
    expect(localStorage.getItem('current_workspace')).toBe('8');

    // Workspace 9 is in no fresh list (deleted or left): forgotten after one more look.
    localStorage.setItem('current_workspace', '9');
    window.dispatchEvent(new StorageEvent('storage', { key: 'current_workspace', newValue: '9' }));
    const seen = listFetches();
    await waitFor(() => expect(localStorage.getItem('current_workspace')).toBeNull(), lazy);
    expect(listFetches()).toBeGreaterThan(seen);
  });

  it('says "Invalid token" for an unknown invite link', async () => {
    serve('member');
    renderAt('/i/nope');
    expect(await screen.findByText('Invalid token', {}, lazy)).toBeInTheDocument();
  });
});
