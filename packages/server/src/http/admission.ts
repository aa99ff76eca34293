import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors';

export type AdmissionOptions = {
  /** API requests worked on at once; the rest wait their turn. */
  concurrency: number;
  /** Requests that may wait; one more is answered 503 `server_busy` with Retry-After. */
  maxQueue: number;
  /** Told how long each admitted request waited for its place, in seconds (the metrics). */
  observeWait?: (seconds: number) => void;
};

/**
 * Calls that never wait: health probes, metrics scrapes (both say how the queue is doing), and event
 * streams (open for hours, they would hold a place).
 */
const exempt = /^\/api\/(health|events)\/|^\/api\/metrics(\?|$)/;
/**
 * File transfers (docs/files.md) last as long as the client's network: a video watched or uploaded
 * over a slow line would hold a place for minutes. Their database work is short statements, one
 * chunk at a time, which interleave with everyone else's.
 */
const fileDownload = /^\/api\/attachments\/\d+\/(content|thumbnail)\/(\?|$)/;
const isExempt = (request: FastifyRequest) =>
  exempt.test(request.url) ||
  (request.method === 'POST' && /^\/api\/attachments\/(\?|$)/.test(request.url)) ||
  ((request.method === 'GET' || request.method === 'HEAD') && fileDownload.test(request.url));

const state = Symbol('admission');
type Tracked = FastifyRequest & { [state]?: { phase: 'waiting' | 'running' | 'done'; wake?: () => void } };

/**
 * First come, first served admission of API requests (docs/security.md, "Load"). Without it, a burst
 * of requests all start at once and contend inside the database driver — the embedded database
 * runs one statement at a time and its queue is not fair, so under 200 clients some requests waited
 * 30 s while later ones passed. Here at most `concurrency` requests run; the others wait in arrival
 * order, and when `maxQueue` are already waiting the next one is told to come back later (503 with
 * a Retry-After estimated from the recent service time) instead of waiting without bound.
 */
export function registerAdmission(app: FastifyInstance, { concurrency, maxQueue, observeWait }: AdmissionOptions) {
  let running = 0;
  const waiting: (() => void)[] = [];
  /** Exponential moving average of the time a request holds its place, in ms. */
  let serviceMs = 20;
  const started = new WeakMap<FastifyRequest, number>();

  /** A place is free: the first waiting request takes it over, or it is given back. */
  const handOver = () => {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  };

  const release = (request: Tracked) => {
    const entry = request[state];
    if (!entry) return;
    if (entry.phase === 'waiting') {
      // Gone while waiting: leave the queue without taking a place.
      const index = entry.wake ? waiting.indexOf(entry.wake) : -1;
      if (index !== -1) waiting.splice(index, 1);
      entry.phase = 'done';
      entry.wake?.();
      return;
    }
    if (entry.phase !== 'running') return;
    entry.phase = 'done';
    const since = started.get(request);
    if (since !== undefined) serviceMs = serviceMs * 0.9 + (performance.now() - since) * 0.1;
    handOver();
  };

  // Callback hooks: most requests take a place at once, with no promise to wait on (decision 119).
  app.addHook('onRequest', (request: Tracked, _reply, done) => {
    if (!request.url.startsWith('/api/') || isExempt(request)) return done();
    if (running < concurrency) {
      running += 1;
      request[state] = { phase: 'running' };
      started.set(request, performance.now());
      observeWait?.(0);
      return done();
    }
    if (waiting.length >= maxQueue) {
      const seconds = Math.min(30, Math.max(1, Math.ceil((waiting.length * serviceMs) / concurrency / 1000)));
      return done(new AppError('server_busy', undefined, { seconds }, { 'retry-after': String(seconds) }));
    }
    const entry: NonNullable<Tracked[typeof state]> = { phase: 'waiting' };
    request[state] = entry;
    // The place passes from the request that finishes straight to this one: `running` stays.
    const queuedAt = performance.now();
    const wake = () => {
      // Woken because the client left: there is nobody to answer and no place was taken.
      if (entry.phase === 'done') return done(new AppError('unavailable'));
      entry.phase = 'running';
      const now = performance.now();
      started.set(request, now);
      observeWait?.((now - queuedAt) / 1000);
      done();
    };
    entry.wake = wake;
    waiting.push(wake);
  });
  app.addHook('onResponse', (request: Tracked, _reply, done) => {
    release(request);
    done();
  });
  app.addHook('onRequestAbort', (request: Tracked, done) => {
    release(request);
    done();
  });

  return {
    /** Requests running and waiting now (tests and the bench read it). */
    stats: () => ({ running, waiting: waiting.length }),
  };
}
