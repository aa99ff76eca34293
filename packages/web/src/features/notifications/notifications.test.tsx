import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TNotification } from '@stageline/shared';
import { calls, json, lazy, renderAt, sent, serve, setupAppHarness, type TCall } from '../../../test/app-harness';

setupAppHarness();

const bob = { id: 2, name: 'Bob', username: 'bob' };
const base = {
  read: false,
  created_at: '2026-11-22T10:00:00Z',
  comment: null,
  actor: bob,
  text: '',
  unit: null,
  task: null,
  workspace: null,
};
const notifications: TNotification[] = [
  {
    ...base,
    id: 1,
    kind: 'mention',
    task: { id: 50, unit: 'Shot 1', stage: 'Compositing' },
    comment: 9,
    text: 'look @ada',
  },
  { ...base, id: 2, kind: 'comment', read: true, unit: { id: 3, name: 'Shot 2', project: 5 } },
  { ...base, id: 3, kind: 'invited', workspace: { id: 8, name: 'Red Studio' } },
  { ...base, id: 4, kind: 'accepted', actor: null, read: true, task: { id: 51, unit: 'Shot 3', stage: 'Layout' } },
];

/** The notifications API over a list that the read calls change. */
function serveNotifications(items: TNotification[], extra: (call: TCall) => Response | undefined = () => undefined) {
  const state = items.map((n) => ({ ...n }));
  serve('member', (call) => {
    const answer = extra(call);
    if (answer) return answer;
    const url = new URL(call.url, 'http://x');
    if (call.method === 'GET' && url.pathname === '/api/notifications/') {
      const unreadOnly = url.searchParams.get('read') === 'false';
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const shown = state.filter((n) => !unreadOnly || !n.read);
      return json(200, {
        count: shown.length,
        next: offset + limit < shown.length ? offset + limit : null,
        unread: state.filter((n) => !n.read).length,
        results: shown.slice(offset, offset + limit),
      });
    }
    const one = /^\/api\/notifications\/(\d+)\/(read|unread)\/$/.exec(url.pathname);
    if (call.method === 'POST' && one) {
      state.find((n) => n.id === Number(one[1]))!.read = one[2] === 'read';
      return json(204, null);
    }
    if (call.method === 'POST' && url.pathname === '/api/notifications/read_all/') {
      state.forEach((n) => (n.read = true));
      return json(204, null);
    }
    if (call.method === 'GET' && url.pathname === '/api/tasks/50/') return json(404, { detail: 'Not found.' });
    return undefined;
  });
  return state;
}

const badge = () => screen.queryByTestId('notifications-badge');

describe('notifications screen', () => {
  it('reads each notification as a sentence, with the unread ones marked and counted in the sidebar', async () => {
    serveNotifications(notifications);
    renderAt('/app/notifications');
    const list = await screen.findByTestId('notifications-list', {}, lazy);
    const items = within(list).getAllByTestId('notification');
    expect(items.map((item) => within(item).getByTestId('notification-text').textContent)).toEqual([
      'Bob mentioned you in Shot 1 · Compositing',
      'Bob commented on Shot 2',
      'Bob invited you to Red Studio',
      'Someone accepted Shot 3 · Layout',
    ]);
    expect(within(items[0]!).getByTestId('notification-excerpt')).toHaveTextContent('look @ada');
    expect(items.map((item) => Boolean(within(item).queryByTestId('notification-unread-dot')))).toEqual([
      true,
      false,
      true,
      false,
    ]);
    await waitFor(() => expect(badge()).toHaveTextContent('2'));
  });

  it('filters the unread ones', async () => {
    serveNotifications(notifications);
    renderAt('/app/notifications');
    await screen.findByTestId('notifications-list', {}, lazy);
    fireEvent.click(screen.getByText('Unread (2)'));
    await waitFor(() => expect(screen.getAllByTestId('notification')).toHaveLength(2));
    expect(sent('GET', '/api/notifications/?read=false&offset=0&limit=20')).toHaveLength(1);
  });

  it('marks one read and unread, then all read, and the badge follows', async () => {
    serveNotifications(notifications);
    renderAt('/app/notifications');
    const list = await screen.findByTestId('notifications-list', {}, lazy);
    await waitFor(() => expect(badge()).toHaveTextContent('2'));

    fireEvent.click(within(within(list).getAllByTestId('notification')[0]!).getByTestId('notification-toggle'));
    await waitFor(() => expect(sent('POST', '/api/notifications/1/read/')).toHaveLength(1));
    await waitFor(() => expect(badge()).toHaveTextContent('1'));

    fireEvent.click(within(within(list).getAllByTestId('notification')[1]!).getByTestId('notification-toggle'));
    await waitFor(() => expect(sent('POST', '/api/notifications/2/unread/')).toHaveLength(1));
    await waitFor(() => expect(badge()).toHaveTextContent('2'));

    fireEvent.click(screen.getByTestId('notifications-read-all'));
    await waitFor(() => expect(sent('POST', '/api/notifications/read_all/')).toHaveLength(1));
    await waitFor(() => expect(badge()).toBeNull());
    expect(screen.queryAllByTestId('notification-unread-dot')).toHaveLength(0);
    expect(screen.getByTestId('notifications-read-all')).toBeDisabled();
  });

  it('marks a notification read when it is opened and goes to its task', async () => {
    serveNotifications(notifications);
    const router = renderAt('/app/notifications');
    const list = await screen.findByTestId('notifications-list', {}, lazy);
    fireEvent.click(within(within(list).getAllByTestId('notification')[0]!).getByTestId('notification-open'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/tasks/50'), lazy);
    expect(sent('POST', '/api/notifications/1/read/')).toHaveLength(1);
  });

  it('opens a unit notification at the unit without marking a read one again', async () => {
    serveNotifications(notifications);
    const router = renderAt('/app/notifications');
    const list = await screen.findByTestId('notifications-list', {}, lazy);
    fireEvent.click(within(within(list).getAllByTestId('notification')[1]!).getByTestId('notification-open'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5/units/3'), lazy);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('pages through long lists', async () => {
    const many = Array.from({ length: 45 }, (_, i) => ({ ...notifications[1]!, id: 100 + i }));
    serveNotifications(many);
    renderAt('/app/notifications');
    await screen.findByTestId('notifications-list', {}, lazy);
    expect(screen.getAllByTestId('notification')).toHaveLength(20);
    fireEvent.click(within(screen.getByTestId('notifications-pagination')).getByText('3'));
    await waitFor(() => expect(screen.getAllByTestId('notification')).toHaveLength(5));
    expect(sent('GET', '/api/notifications/?offset=40&limit=20')).toHaveLength(1);
  });

  it('goes back to a page that exists when marking read empties the one shown', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ ...notifications[0]!, id: 200 + i }));
    serveNotifications(many);
    renderAt('/app/notifications');
    await screen.findByTestId('notifications-list', {}, lazy);
    fireEvent.click(screen.getByText('Unread (25)'));
    fireEvent.click(within(await screen.findByTestId('notifications-pagination')).getByText('2'));
    await waitFor(() => expect(screen.getAllByTestId('notification')).toHaveLength(5));
    fireEvent.click(screen.getByTestId('notifications-read-all'));
    expect(await screen.findByText('No unread notifications')).toBeInTheDocument();
    expect(screen.queryByTestId('notifications-pagination')).toBeNull();
    expect(sent('GET', '/api/notifications/?read=false&offset=0&limit=20').length).toBeGreaterThan(1);
  });

  it('shows an empty state', async () => {
    serveNotifications([]);
    renderAt('/app/notifications');
    expect(await screen.findByTestId('notifications-empty', {}, lazy)).toHaveTextContent('No notifications yet');
    expect(badge()).toBeNull();
  });

  it("says 'Data was not saved' when marking fails", async () => {
    serveNotifications(notifications, (call) =>
      call.method === 'POST' && call.url === '/api/notifications/read_all/' ? json(500, { detail: 'x' }) : undefined,
    );
    renderAt('/app/notifications');
    await screen.findByTestId('notifications-list', {}, lazy);
    fireEvent.click(screen.getByTestId('notifications-read-all'));
    expect(await screen.findByText('Data was not saved')).toBeInTheDocument();
    expect(screen.getAllByTestId('notification-unread-dot')).toHaveLength(2);
  });
});
