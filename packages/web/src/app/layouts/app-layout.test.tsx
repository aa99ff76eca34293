import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '../../shared/i18n';
import { useShellStore } from '../../shared/lib/shell-store';
import { Providers } from '../providers';
import { routes } from '../routing/routes';

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

beforeEach(() => {
  useShellStore.setState({ maintenance: false, fatalError: null, pageError: null, loadingLabel: null });
});

describe('AppLayout', () => {
  it('shows Home › Project › Pipeline › Edit on the pipeline edit screen', async () => {
    renderAt('/app/projects/5/pipelines/7/edit');
    expect(await screen.findByText('Edit pipeline', {}, lazy)).toBeTruthy();

    const crumbs = screen.getByTestId('breadcrumbs');
    expect(crumbs.textContent).toMatch(/^Home.*Project 5.*Pipeline 7.*Edit$/);
    const links = within(crumbs).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/app'],
      ['Project 5', '/app/projects/5'],
      ['Pipeline 7', '/app/projects/5/pipelines/7'],
    ]);
    expect(within(crumbs).getByText('Edit').closest('a')).toBeNull();
  });

  it('shows the sidebar by default and removes it when disabled through the menu', async () => {
    localStorage.setItem('current_workspace', '3');
    renderAt('/app/projects/5');
    expect(await screen.findByText('Project', {}, lazy)).toBeTruthy();
    const sidebar = screen.getByTestId('sidebar');
    expect(within(sidebar).getByText('Workspaces')).toBeTruthy();

    fireEvent.click(screen.getByTestId('app-menu'));
    const toggle = await screen.findByTestId('sidebar-enable-toggle');
    expect(toggle.textContent).toContain('Disable sidebar');
    fireEvent.click(toggle);

    await waitFor(() => expect(screen.queryByTestId('sidebar')).toBeNull());
    expect(localStorage.getItem('sideBarEnabled')).toBe('false');
  });

  it('keeps the sidebar off when it was disabled before', async () => {
    localStorage.setItem('sideBarEnabled', 'false');
    renderAt('/app/projects/5');
    expect(await screen.findByText('Project', {}, lazy)).toBeTruthy();
    expect(screen.queryByTestId('sidebar')).toBeNull();
  });

  it('shows the not-found screen for an unknown app path', async () => {
    const router = renderAt('/app/nope');
    expect(await screen.findByTestId('not-found-screen', {}, lazy)).toBeTruthy();
    expect(screen.getByText('Page not found')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/app/nope');
  });

  it('sends /app without a current workspace to the workspace list', async () => {
    const router = renderAt('/app');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces'), lazy);
    expect(await screen.findByText('Workspaces', { selector: 'h1' }, lazy)).toBeTruthy();
  });

  it('resolves the current workspace settings to the stored workspace', async () => {
    localStorage.setItem('current_workspace', '3');
    const router = renderAt('/app/workspaces/current/settings');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces/3/settings'), lazy);
    expect(await screen.findByText('Workspace settings', {}, lazy)).toBeTruthy();
  });
});
