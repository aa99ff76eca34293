import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { TRefreshOutcome } from '../api/client';

/** What the stream reports about itself, for a status dot or a test. */
export type TLiveStatus = 'connecting' | 'open' | 'waiting' | 'offline' | 'stopped';

export type TLiveStreamDeps = {
  /** The stream's URL: `/api/events/`. */
  url: string;
  fetch?: typeof fetch;
  /** The access token of the session, or null when signed out (the stream stops). */
  getToken: () => string | null;
  /** The app's shared token refresh (the API client's, so tabs and requests never race). */
  refresh: () => Promise<TRefreshOutcome>;
  getLanguage?: () => string;
  onMessage: (message: EventSourceMessage) => void;
  onStatus?: (status: TLiveStatus) => void;
  /** Reconnect delays: `base · 2^attempt`, capped, with jitter (full jitter over the upper half). */
  backoff?: { baseMs: number; maxMs: number };
  random?: () => number;
  /** `navigator.onLine` and its events; a test passes its own. */
  network?: {
    online: () => boolean;
    subscribe: (listener: (online: boolean) => void) => () => void;
  };
};

const defaultNetwork: NonNullable<TLiveStreamDeps['network']> = {
  online: () => (typeof navigator === 'undefined' ? true : navigator.onLine !== false),
  subscribe: (listener) => {
    if (typeof window === 'undefined') return () => undefined;
    const up = () => listener(true);
    const down = () => listener(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  },
};

/** The delay before reconnect attempt `attempt` (0-based): between half and all of the capped step. */
export function backoffDelay(attempt: number, base: number, max: number, random: () => number): number {
  const step = Math.min(max, base * 2 ** Math.min(attempt, 20));
  return Math.round(step / 2 + random() * (step / 2));
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return null;
  }
}

/**
 * One Server-Sent Events connection read with `fetch` (EventSource cannot send the bearer token).
 * It resends the last event id as `Last-Event-ID` on every reconnect, reconnects with exponential
 * backoff and jitter, waits while the browser is offline, refreshes the token on a 401
 * `token_not_valid` and stops on any other 401, on `stop()`, or when the session has no token.
 */
export function createLiveStream(deps: TLiveStreamDeps) {
  const doFetch = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const network = deps.network ?? defaultNetwork;
  const random = deps.random ?? Math.random;
  const { baseMs, maxMs } = deps.backoff ?? { baseMs: 1000, maxMs: 30_000 };

  let lastEventId: string | null = null;
  let running = false;
  /** Each start() runs its own loop; a loop of an earlier start ends on its next step. */
  let runs = 0;
  let attempt = 0;
  /** The server's `retry:` field, when it sent one, replaces the base delay. */
  let serverRetry: number | null = null;
  let connection: AbortController | null = null;
  /** Ends the current wait early (coming back online, stopping). */
  let wake: (() => void) | null = null;
  let unsubscribeNetwork: (() => void) | null = null;
  let status: TLiveStatus = 'stopped';

  const setStatus = (next: TLiveStatus) => {
    if (next === status) return;
    status = next;
    deps.onStatus?.(next);
  };

  const wait = (ms: number | null) =>
    new Promise<void>((resolve) => {
      const timer = ms === null ? null : setTimeout(done, ms);
      function done() {
        if (timer !== null) clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });

  const pause = async () => {
    setStatus('waiting');
    await wait(backoffDelay(attempt, serverRetry ?? baseMs, maxMs, random));
    attempt += 1;
  };

  async function connect(token: string): Promise<'again' | 'stop' | 'backoff'> {
    const controller = new AbortController();
    connection = controller;
    setStatus('connecting');
    const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${token}` };
    if (deps.getLanguage) headers['Accept-Language'] = deps.getLanguage();
    if (lastEventId !== null) headers['Last-Event-ID'] = lastEventId;
    let response: Response;
    try {
      response = await doFetch(deps.url, { headers, signal: controller.signal, cache: 'no-store' });
    } catch {
      return 'backoff';
    }
    if (response.status === 401) {
      const body = await readJson(response);
      const code = typeof body === 'object' && body !== null && 'code' in body ? body.code : null;
      if (code !== 'token_not_valid') return 'stop';
      const outcome = await deps.refresh();
      if (outcome === 'expired') return 'stop';
      // A refreshed token reconnects at once, but only once in a row: a second refusal waits.
      return outcome === 'ok' && attempt === 0 ? 'again' : 'backoff';
    }
    if (!response.ok || !response.body) {
      void response.body?.cancel().catch(() => undefined);
      return 'backoff';
    }
    attempt = 0;
    // A fresh stream says where it starts, so a reconnect before any event misses nothing.
    const start = response.headers.get('last-event-id');
    if (lastEventId === null && start && /^\d+$/.test(start)) lastEventId = start;
    setStatus('open');
    const parser = createParser({
      onEvent: (message) => {
        if (message.id !== undefined) lastEventId = message.id;
        try {
          deps.onMessage(message);
        } catch {
          // One bad handler must not end the stream.
        }
      },
      onRetry: (ms) => {
        serverRetry = ms;
      },
    });
    const reader = response.body.getReader();
    // fetch ends the body on abort too; cancelling here makes sure a pending read returns.
    controller.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // The connection broke (or stop() aborted it).
    }
    return 'backoff';
  }

  async function loop(generation: number) {
    const current = () => running && generation === runs;
    while (current()) {
      if (!network.online()) {
        setStatus('offline');
        await wait(null);
        continue;
      }
      const token = deps.getToken();
      if (!token) break;
      const next = await connect(token);
      if (!current()) return;
      if (next === 'stop') break;
      // Cut off by going offline: wait for the network, not for the backoff.
      if (!network.online()) continue;
      if (next === 'again') {
        attempt += 1;
        continue;
      }
      await pause();
    }
    if (generation !== runs) return;
    running = false;
    unsubscribeNetwork?.();
    unsubscribeNetwork = null;
    setStatus('stopped');
  }

  return {
    /** Opens the stream (again after a stop); a running stream is left alone. */
    start() {
      if (running) return;
      running = true;
      runs += 1;
      attempt = 0;
      unsubscribeNetwork = network.subscribe((online) => {
        if (online) wake?.();
        else connection?.abort();
      });
      void loop(runs);
    },
    /** Closes the stream for good (sign-out, the tab's app unmounting). */
    stop() {
      running = false;
      unsubscribeNetwork?.();
      unsubscribeNetwork = null;
      connection?.abort();
      wake?.();
      setStatus('stopped');
    },
    get lastEventId() {
      return lastEventId;
    },
    get status() {
      return status;
    },
  };
}

export type TLiveStream = ReturnType<typeof createLiveStream>;
