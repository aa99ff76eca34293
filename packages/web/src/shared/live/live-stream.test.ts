import { describe, expect, it, vi } from 'vitest';
import type { EventSourceMessage } from 'eventsource-parser';
import { backoffDelay, createLiveStream, type TLiveStatus, type TLiveStreamDeps } from './live-stream';

/** A streamed response whose chunks the test pushes, and closes, when it likes. */
function sseResponse(headers: Record<string, string> = {}) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
  });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream', ...headers } }),
    push: (text: string) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

type TCall = { url: string; headers: Record<string, string>; signal: AbortSignal | undefined };

function harness(
  answers: (call: TCall, index: number) => Response | Promise<Response>,
  over: Partial<TLiveStreamDeps> = {},
) {
  const calls: TCall[] = [];
  const messages: EventSourceMessage[] = [];
  const statuses: TLiveStatus[] = [];
  let token = 'a1';
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const call = {
      url,
      headers: init?.headers as Record<string, string>,
      signal: init?.signal ?? undefined,
    };
    calls.push(call);
    return answers(call, calls.length - 1);
  });
  const refresh = vi.fn(async () => {
    token = 'a2';
    return 'ok' as const;
  });
  const stream = createLiveStream({
    url: '/api/events/',
    fetch: fetchMock as unknown as typeof fetch, // called with a string URL only
    getToken: () => token,
    refresh,
    onMessage: (message) => messages.push(message),
    onStatus: (status) => statuses.push(status),
    backoff: { baseMs: 5, maxMs: 20 },
    random: () => 0,
    ...over,
  });
  return { stream, calls, messages, statuses, refresh, setToken: (value: string) => (token = value) };
}

const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 3000 });

describe('live stream', () => {
  it('parses events split across chunks and resends the last id on reconnect', async () => {
    const first = sseResponse();
    const second = sseResponse();
    const h = harness((_call, index) => (index === 0 ? first.response : second.response));
    h.stream.start();
    await until(() => h.stream.status === 'open');
    expect(h.calls[0]!.headers.Authorization).toBe('Bearer a1');
    expect(h.calls[0]!.headers.Accept).toBe('text/event-stream');
    expect(h.calls[0]!.headers['Last-Event-ID']).toBeUndefined();

    first.push('retry: 5\n\n: heartbeat\n\nid: 41\nevent: task\ndata: {"id":');
    first.push('1}\n\nid: 42\nevent: notification\nda');
    first.push('ta: {"id":2}\n\n');
    await until(() => h.messages.length === 2);
    expect(h.messages.map((m) => [m.id, m.event, JSON.parse(m.data) as unknown])).toEqual([
      ['41', 'task', { id: 1 }],
      ['42', 'notification', { id: 2 }],
    ]);
    expect(h.stream.lastEventId).toBe('42');

    first.close();
    await until(() => h.calls.length === 2);
    expect(h.calls[1]!.headers['Last-Event-ID']).toBe('42');
    h.stream.stop();
    expect(h.stream.status).toBe('stopped');
    expect(h.calls[1]!.signal?.aborted).toBe(true);
  });

  it("resumes from a fresh stream's Last-Event-ID header when no event came", async () => {
    const first = sseResponse({ 'Last-Event-ID': '100' });
    const h = harness((_call, index) => (index === 0 ? first.response : sseResponse().response));
    h.stream.start();
    await until(() => h.stream.status === 'open');
    first.close();
    await until(() => h.calls.length === 2);
    expect(h.calls[1]!.headers['Last-Event-ID']).toBe('100');
    h.stream.stop();
  });

  it('backs off exponentially with jitter while the server fails', async () => {
    const times: number[] = [];
    const h = harness(
      () => {
        times.push(performance.now());
        return json(502, { detail: 'down' });
      },
      { backoff: { baseMs: 40, maxMs: 160 }, random: () => 1 },
    );
    h.stream.start();
    await until(() => h.calls.length === 4);
    h.stream.stop();
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // 40, 80, 160 ms (random() = 1 takes the whole step); timers may fire a little late, never early.
    expect(gaps[0]).toBeGreaterThanOrEqual(38);
    expect(gaps[1]).toBeGreaterThanOrEqual(78);
    expect(gaps[2]).toBeGreaterThanOrEqual(158);
    expect(h.statuses).toContain('waiting');
  });

  it('keeps each delay between half and all of the capped step', () => {
    expect(backoffDelay(0, 1000, 30_000, () => 0)).toBe(500);
    expect(backoffDelay(0, 1000, 30_000, () => 1)).toBe(1000);
    expect(backoffDelay(3, 1000, 30_000, () => 0.5)).toBe(6000);
    expect(backoffDelay(10, 1000, 30_000, () => 1)).toBe(30_000);
    expect(backoffDelay(50, 1000, 30_000, () => 0)).toBe(15_000);
  });

  it('refreshes the token on a 401 token_not_valid and reconnects with the new one', async () => {
    const h = harness((_call, index) =>
      index === 0
        ? json(401, { detail: 'Token is invalid or expired', code: 'token_not_valid' })
        : sseResponse().response,
    );
    h.stream.start();
    await until(() => h.calls.length === 2);
    expect(h.refresh).toHaveBeenCalledTimes(1);
    expect(h.calls[1]!.headers.Authorization).toBe('Bearer a2');
    await until(() => h.stream.status === 'open');
    h.stream.stop();
  });

  it('stops on any other 401, and when the refresh token was refused', async () => {
    const other = harness(() => json(401, { detail: 'User is inactive', code: 'user_inactive' }));
    other.stream.start();
    await until(() => other.stream.status === 'stopped' && other.calls.length === 1);
    expect(other.refresh).not.toHaveBeenCalled();

    const expired = harness(() => json(401, { code: 'token_not_valid' }), {
      refresh: vi.fn(async () => 'expired' as const),
    });
    expired.stream.start();
    await until(() => expired.stream.status === 'stopped' && expired.calls.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(expired.calls).toHaveLength(1);
  });

  it('waits while offline and connects once the browser is back online', async () => {
    let online = false;
    const listeners = new Set<(on: boolean) => void>();
    const h = harness(() => sseResponse().response, {
      network: {
        online: () => online,
        subscribe: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
    });
    h.stream.start();
    await until(() => h.stream.status === 'offline');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(h.calls).toHaveLength(0);
    online = true;
    listeners.forEach((listener) => listener(true));
    await until(() => h.stream.status === 'open');
    expect(h.calls).toHaveLength(1);

    online = false;
    listeners.forEach((listener) => listener(false));
    await until(() => h.stream.status === 'offline');
    expect(h.calls[0]!.signal?.aborted).toBe(true);
    h.stream.stop();
    expect(listeners.size).toBe(0);
  });

  it('does not connect without a token', async () => {
    const h = harness(() => sseResponse().response);
    h.setToken('');
    h.stream.start();
    await until(() => h.stream.status === 'stopped');
    expect(h.calls).toHaveLength(0);
  });
});
