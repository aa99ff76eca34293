import { createParser } from 'eventsource-parser';
import type { TComment, TNotification, TNotificationList } from '@stageline/shared';
import { expect } from 'vitest';
import type { TestApp } from './helpers';
import { as } from './workspaces';

/**
 * Factories and clients for comments, notifications and the live stream: comments through the API
 * (so their notifications are made the product's way), the caller's notifications, and an SSE
 * client that reads `GET events/` with fetch as the web app does.
 */

type Caller = { headers: { authorization: string } };

/** A comment posted through POST comments/ that must succeed. */
export async function buildComment(
  t: TestApp,
  user: Caller,
  target: { task: number } | { unit: number },
  text = `Comment ${Math.random().toString(36).slice(2, 8)}`,
): Promise<TComment> {
  const response = await as(t, user)('POST', '/api/comments/', { ...target, text });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<TComment>();
}

/** The caller's notifications (newest first). */
export async function notificationsOf(t: TestApp, user: Caller, query = ''): Promise<TNotificationList> {
  const response = await as(t, user)('GET', `/api/notifications/${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TNotificationList>();
}

/** The kinds of the caller's notifications, newest first. */
export async function kindsOf(t: TestApp, user: Caller): Promise<TNotification['kind'][]> {
  return (await notificationsOf(t, user)).results.map((n) => n.kind);
}

export type Message = { id: number; event: string; data: unknown };

export type Stream = {
  response: Response;
  messages: Message[];
  /** Waits for a message matching `predicate` (already received or coming). */
  next(predicate: (m: Message) => boolean, timeoutMs?: number): Promise<Message>;
  /** Waits `ms` and answers the messages that came meanwhile. */
  quiet(ms: number): Promise<Message[]>;
  /** Resolves when the server ends the stream (or `close()` aborts it). */
  ended: Promise<void>;
  close(): void;
};

/** Listens on 127.0.0.1, port 0, and answers the base URL. */
export async function listening(t: TestApp): Promise<string> {
  return t.app.listen({ port: 0, host: '127.0.0.1' });
}

/** Opens `GET events/` as `user`, as the web client does (fetch streaming, bearer header). */
export async function openStream(
  baseUrl: string,
  user: Caller,
  { lastEventId, query = '' }: { lastEventId?: number | string; query?: string } = {},
): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/events/${query}`, {
    headers: {
      ...user.headers,
      accept: 'text/event-stream',
      ...(lastEventId !== undefined ? { 'last-event-id': String(lastEventId) } : {}),
    },
    signal: controller.signal,
  });
  const messages: Message[] = [];
  const waiters = new Set<() => void>();
  const parser = createParser({
    onEvent: (event) => {
      messages.push({ id: Number(event.id), event: event.event ?? 'message', data: JSON.parse(event.data) as unknown });
      for (const wake of [...waiters]) wake();
    },
  });
  const done = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    } catch {
      // Aborted by close().
    }
  })();
  return {
    ended: done,
    response,
    messages,
    next: (predicate, timeoutMs = 10_000) =>
      new Promise<Message>((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No matching event within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      }),
    quiet: async (ms) => {
      const from = messages.length;
      await new Promise((resolve) => setTimeout(resolve, ms));
      return messages.slice(from);
    },
    close: () => controller.abort(),
  };
}
