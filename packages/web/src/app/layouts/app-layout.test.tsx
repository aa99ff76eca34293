import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../shared/api/query-client';
import { initI18n } from '../../shared/i18n';
import { useShellStore } from '../../shared/lib/shell-store';
import { Providers } from '../providers';
import { routes } from '../routing/routes';
import { servedMe } from '../../../test/served';

/** Screens are lazy chunks: the first transform of a chunk can take longer than the default 1 s. */
const lazy = { timeout: 10_000 };

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

beforeAll(async () => {
  await initI18n().changeLanguage('en');
});

const me = servedMe({ last_name: 'Lovelace' });

const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (url === '/api/users/me/') {
    return new Response(JSON.stringify(me), { status: 200, headers: { 'Content-Type': 'application/json' } });
  }
  return new Response(JSON.stringify({ detail: 'Not found.', code: 'not_found' }), {
    status: 404,
    headers: { 'Content-Type': 'application/json' },
  });
});

beforeEach(() => {
  useShellStore.setState({ maintenance: false, fatalError: null, pageError: null, loadingLabel: null });
  queryClient.clear();
  localStorage.setItem('authTokens', JSON.stringify({ access: 'a1', refresh: 'r1' }));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('AppLayout', () => {
  it('sends a visitor without a session to /login with the page to come back to', async () => {
    localStorage.removeItem('authTokens');
    const router = renderAt('/app/projects/5?tab=units');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), lazy);
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/app/projects/5?tab=units')}`);
    expect((await screen.findByTestId('login-username', {}, lazy)).tagName).toBe('INPUT');
  });

  it('shows the user in the header menu with Profile and Log out', async () => {
    renderAt('/app/projects/5/units');
    expect((await screen.findByText('Units', { selector: 'h1' }, lazy)).textContent).toBe('Units');
    expect(screen.getByTestId('app-menu-name').textContent).toBe('Ada Lovelace');
    fireEvent.click(screen.getByTestId('app-menu'));
    expect((await screen.findByTestId('menu-profile')).getAttribute('href')).toBe('/app/profile');
    expect(screen.getByTestId('menu-logout').getAttribute('href')).toBe('/logout');
    expect(screen.getByText('@ada').textContent).toContain('@ada');
  });

  it('requires a session for invite links too', async () => {
    localStorage.removeItem('authTokens');
    const router = renderAt('/i/abc');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), lazy);
    expect(router.state.location.search).toBe('?next=%2Fi%2Fabc');
  });

  it('shows Home › Project › Unit › Edit on the unit edit screen, with ids until names are known', async () => {
    renderAt('/app/projects/5/units/7/edit');
    expect((await screen.findByText('Edit unit', {}, lazy)).textContent).toBe('Edit unit');

    const crumbs = screen.getByTestId('breadcrumbs');
    expect(crumbs.textContent).toMatch(/^Home.*Project 5.*Unit 7.*Edit$/);
    const links = within(crumbs).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/app'],
      ['Project 5', '/app/projects/5'],
      ['Unit 7', '/app/projects/5/units/7'],
    ]);
    expect(within(crumbs).getByText('Edit').closest('a')).toBeNull();
  });

  it('shows the sidebar by default and removes it when disabled through the menu', async () => {
    localStorage.setItem('current_workspace', '3');
    renderAt('/app/projects/5/units');
    expect((await screen.findByText('Units', { selector: 'h1' }, lazy)).textContent).toBe('Units');
    const sidebar = screen.getByTestId('sidebar');
    expect(within(sidebar).getByText('Workspaces').textContent).toBe('Workspaces');

    fireEvent.click(screen.getByTestId('app-menu'));
    const toggle = await screen.findByTestId('sidebar-enable-toggle');
    expect(toggle.textContent).toContain('Disable sidebar');
    fireEvent.click(toggle);

    await waitFor(() => expect(screen.queryByTestId('sidebar')).toBeNull());
    expect(localStorage.getItem('sideBarEnabled')).toBe('false');
  });

  it('keeps the sidebar off when it was disabled before', async () => {
    localStorage.setItem('sideBarEnabled', 'false');
    renderAt('/app/projects/5/units');
    expect((await screen.findByText('Units', { selector: 'h1' }, lazy)).textContent).toBe('Units');
    expect(screen.queryByTestId('sidebar')).toBeNull();
  });

  it('shows the not-found screen for an unknown app path', async () => {
    const router = renderAt('/app/nope');
    expect((await screen.findByTestId('not-found-screen', {}, lazy)).textContent).toContain('Page not found');
    expect(router.state.location.pathname).toBe('/app/nope');
  });

  it('sends /app without a current workspace to the workspace list', async () => {
    const router = renderAt('/app');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces'), lazy);
    expect((await screen.findByText('Workspaces', { selector: 'h1' }, lazy)).textContent).toBe('Workspaces');
  });

  it('resolves the current workspace settings to the stored workspace', async () => {
    localStorage.setItem('current_workspace', '3');
    const router = renderAt('/app/workspaces/current/settings');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces/3/settings'), lazy);
    expect((await screen.findByText('Workspace settings', {}, lazy)).textContent).toBe('Workspace settings');
  });
});
