import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers';

/**
 * API requests are worked on first come, first served, at most `MAX_CONCURRENT_REQUESTS` at once;
 * past `MAX_QUEUED_REQUESTS` waiting, a clear 503 with Retry-After (docs/security.md, "Load").
 */

let t: TestApp;
const started: number[] = [];
let open: () => void = () => undefined;
let gate = new Promise<void>((resolve) => (open = resolve));

beforeAll(async () => {
  t = await buildTestApp({ config: { maxConcurrentRequests: 1, maxQueuedRequests: 3 } });
  t.app.get<{ Params: { n: string } }>('/api/test/slow/:n/', async (request) => {
    started.push(Number(request.params.n));
    await gate;
    return { n: Number(request.params.n) };
  });
});
afterAll(async () => {
  open();
  await t?.close();
});

describe('admission', () => {
  test('one at a time in arrival order; a full queue answers 503 server_busy with Retry-After', async () => {
    const slow = (n: number) => t.app.inject({ method: 'GET', url: `/api/test/slow/${n}/` });
    const running = [slow(1), slow(2), slow(3), slow(4)];
    // Let the four arrive: one runs (at the gate), three wait.
    await vi.waitFor(() => expect(t.app.admission.stats()).toEqual({ running: 1, waiting: 3 }), { timeout: 5_000 });
    await vi.waitFor(() => expect(started).toEqual([1]), { timeout: 5_000 });

    const refused = await slow(5);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({
      detail: `The server is busy. Try again in ${refused.headers['retry-after']} seconds.`,
      code: 'server_busy',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // Health probes never wait behind the queue, nor file transfers (answered here: signed out).
    expect((await t.app.inject({ method: 'GET', url: '/api/health/' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/attachments/1/content/?token=x' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/attachments/' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/attachments/?task=1' })).statusCode).toBe(503);

    open();
    const answers = await Promise.all(running);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    expect(started).toEqual([1, 2, 3, 4]);

    // Places were all given back: new requests run at once.
    gate = Promise.resolve();
    expect((await slow(6)).statusCode).toBe(200);
  });
});
