import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TComment } from '@stageline/shared';
import { json, lazy, renderAt, serve, setupAppHarness } from '../../../../test/app-harness';
import { sampleTask } from '../../../../test/served';

setupAppHarness();

const bob = { id: 2, name: 'Bob', username: 'bob' };
const task = sampleTask();

const comment: TComment = {
  id: 9,
  task: 50,
  unit: null,
  author: bob,
  text: 'hello @ada',
  mentions: [{ id: 1, name: 'Ada', username: 'ada' }],
  created_at: '2026-11-22T10:00:00Z',
  edited_at: null,
};

describe('live events in the app', () => {
  it('shows a comment and raises the badge as the events arrive, resuming from the last id', async () => {
    const encoder = new TextEncoder();
    let push: (text: string) => void = () => undefined;
    let close: () => void = () => undefined;
    const eventCalls: Headers[] = [];
    let unread = 0;
    serve('member', (call) => {
      if (call.url === '/api/events/') {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            push = (text) => controller.enqueue(encoder.encode(text));
            close = () => controller.close();
          },
        });
        return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
      }
      if (call.url === '/api/tasks/50/') return json(200, task);
      if (call.url === '/api/workspaces/7/users/') return json(200, []);
      if (call.url.startsWith('/api/comments/?task=50')) return json(200, { count: 0, next: null, results: [] });
      if (call.url.startsWith('/api/notifications/'))
        return json(200, { count: unread, next: null, unread, results: [] });
      return undefined;
    });
    const fetchMock = globalThis.fetch as unknown as { mock: { calls: [string, RequestInit][] } };
    renderAt('/app/tasks/50');
    await screen.findByTestId('comments-empty', {}, lazy);
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => url === '/api/events/')).toBe(true));
    const first = fetchMock.mock.calls.find(([url]) => url === '/api/events/')![1];
    eventCalls.push(new Headers(first.headers));
    expect(eventCalls[0]!.get('Authorization')).toBe('Bearer a1');

    push(`id: 11\nevent: comment\ndata: ${JSON.stringify({ action: 'created', comment })}\n\n`);
    const list = await screen.findByTestId('comments-list');
    expect(within(list).getByTestId('comment')).toHaveTextContent('hello @ada');

    unread = 1;
    push(
      `id: 12\nevent: notification\ndata: ${JSON.stringify({
        id: 4,
        kind: 'mention',
        read: false,
        created_at: '2026-11-22T10:00:00Z',
        task: { id: 50, unit: 'Shot 1', stage: 'Compositing' },
        unit: null,
        workspace: null,
        comment: 9,
        actor: bob,
        text: 'hello @ada',
      })}\n\n`,
    );
    await waitFor(() => expect(screen.getByTestId('notifications-badge')).toHaveTextContent('1'));
    // The header's bell carries the count too (visible with the sidebar closed or turned off).
    expect(screen.getByTestId('notifications-bell')).toHaveAccessibleName('Notifications: 1 unread');
    expect(await screen.findByText('Bob mentioned you in Shot 1 · Compositing')).toBeInTheDocument();

    close();
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => url === '/api/events/').length).toBe(2), {
      timeout: 8000,
    });
    const again = fetchMock.mock.calls.filter(([url]) => url === '/api/events/')[1]![1];
    expect(new Headers(again.headers).get('Last-Event-ID')).toBe('12');
  });
});
