import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TNotification } from '@stageline/shared';
import { json, lazy, me, pipeline, renderAt, serve, setupAppHarness, workspace } from '../../../test/app-harness';
import { i18n } from '../../shared/i18n';

setupAppHarness();

afterEach(async () => {
  await i18n.changeLanguage('en');
});

/** What a newcomer meets first (issue 19 item 8). */
describe('the public header', () => {
  it.each(['/docs', '/change_email?token=first-steps', '/i/abc'])(
    'offers the app, not Log in, to a signed-in user on %s',
    async (path) => {
      serve('member');
      renderAt(path);
      expect(await screen.findByTestId('public-open-app', {}, lazy)).toHaveAttribute('href', '/app');
      expect(screen.queryByTestId('public-login')).toBeNull();
      expect(screen.queryByTestId('public-register')).toBeNull();
    },
  );

  it('offers Log in and Register to a visitor', async () => {
    localStorage.removeItem('authTokens');
    serve('member');
    renderAt('/docs');
    expect(await screen.findByTestId('public-login', {}, lazy)).toHaveAttribute('href', '/login');
    expect(screen.getByTestId('public-register')).toHaveAttribute('href', '/register');
    expect(screen.queryByTestId('public-open-app')).toBeNull();
  });
});

describe('Markdown people wrote', () => {
  const described = {
    ...workspace(7, 'member'),
    description: 'We make **animation** for [kids](https://example.com).',
  };

  it('renders a workspace description', async () => {
    serve('member', ({ method, url }) =>
      method === 'GET' && url === '/api/workspaces/7/' ? json(200, described) : undefined,
    );
    renderAt('/app/workspaces/7');
    const description = await screen.findByTestId('workspace-description', {}, lazy);
    expect(description.textContent).toBe('We make animation for kids.');
    expect(within(description).getByText('animation').tagName).toBe('STRONG');
    expect(within(description).getByRole('link', { name: 'kids' })).toHaveAttribute('href', 'https://example.com');
  });

  it('reads a workspace card description and a notification excerpt as plain text', async () => {
    const mention: TNotification = {
      id: 1,
      kind: 'mention',
      read: false,
      created_at: '2026-11-22T10:00:00Z',
      comment: 9,
      actor: { id: 2, name: 'Bob', username: 'bob' },
      text: '@ada the **timing** of `shot 3` is _off_',
      unit: null,
      task: { id: 50, unit: 'Shot 1', stage: 'Compositing' },
      workspace: null,
    };
    serve('member', ({ method, url }) => {
      if (method === 'GET' && url === '/api/workspaces/') return json(200, [described]);
      if (method === 'GET' && url.startsWith('/api/notifications/'))
        return json(200, { count: 1, next: null, unread: 1, results: [mention] });
      return undefined;
    });
    renderAt('/app/workspaces');
    expect(await screen.findByTestId('workspace-card-description', {}, lazy)).toHaveTextContent(
      /^We make animation for kids\.$/,
    );
    renderAt('/app/notifications');
    expect(await screen.findByTestId('notification-excerpt', {}, lazy)).toHaveTextContent(
      /^@ada the timing of shot 3 is off$/,
    );
  });
});

describe('the quickstart banner on My work', () => {
  it('does not urge a Member of an existing workspace to set one up', async () => {
    serve('member', ({ url }) => (url === '/api/users/me/' ? json(200, { ...me, onboarding: 'pending' }) : undefined));
    renderAt('/app');
    expect(await screen.findByText('My work', { selector: 'h1' }, lazy)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('workspace-switcher')).toBeInTheDocument(), lazy);
    expect(screen.queryByTestId('quickstart-banner')).toBeNull();
  });

  it('offers it to someone with no workspace yet', async () => {
    serve('member', ({ url }) => {
      if (url === '/api/users/me/')
        return json(200, { ...me, onboarding: 'pending', workspaces: [], recent_workspace: null });
      if (url === '/api/workspaces/') return json(200, []);
      return undefined;
    });
    localStorage.removeItem('current_workspace');
    renderAt('/app');
    expect(await screen.findByTestId('quickstart-banner', {}, lazy)).toHaveTextContent(
      'Set up a workspace, a project and your first pipeline in a few steps.',
    );
  });

  it('offers the rest of it to the owner of a workspace', async () => {
    serve('owner', ({ url }) => (url === '/api/users/me/' ? json(200, { ...me, onboarding: 'skipped' }) : undefined));
    renderAt('/app');
    expect(await screen.findByTestId('quickstart-banner', {}, lazy)).toHaveTextContent(
      'Pick up the quickstart where you left it.',
    );
  });
});

describe('the pipeline screen', () => {
  it('shows Overdue in red only when something is overdue', async () => {
    const calm = {
      ...pipeline(7, 'Animation'),
      task_counters: { todo: 1, in_progress: 0, review: 0, edit: 0, done: 0, overdue: 0 },
    };
    serve('member', ({ method, url }) =>
      method === 'GET' && url === '/api/pipelines/7/' ? json(200, calm) : undefined,
    );
    renderAt('/app/projects/5/pipelines/7');
    const overdue = await screen.findByTestId('pipeline-overdue', {}, lazy);
    expect(overdue).toHaveTextContent('Overdue: 0');
    expect(overdue).toHaveAttribute('data-overdue', 'false');
    expect(overdue.getAttribute('style') ?? '').not.toMatch(/red/);
  });

  it('names the Edit action and the Edit status apart in Russian', async () => {
    await i18n.changeLanguage('ru');
    serve('member');
    renderAt('/app/projects/5/pipelines/7');
    const counters = await screen.findByTestId('pipeline-counters', {}, lazy);
    expect(counters).toHaveTextContent('На доработке: 0');
    const edit = await screen.findByTestId('pipeline-edit', {}, lazy);
    expect(edit).toHaveTextContent('Редактировать');
    expect(counters).not.toHaveTextContent('Редактировать');
  });
});
