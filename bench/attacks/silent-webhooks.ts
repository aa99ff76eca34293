/**
 * Issue 31, item 3: one workspace's webhooks to a receiver that never answers must not hold up
 * another workspace's deliveries (goal: at most 1 s more; docs/security.md, "Webhooks").
 *
 * Through the API as the signed-in user of `ctx`: workspace A gets 30 webhooks to a silent HTTP
 * server on 127.0.0.1 (it takes each request and never answers) and each is pinged 3 times (90
 * deliveries that each wait for the server's timeout, 10 s); then workspace B's one webhook, to an
 * answering server on 127.0.0.1, is pinged, and the time until that server has the delivery is
 * measured. Before the fix B waited behind A's tries, 10 at a time: about 30 s.
 *
 * The server must be allowed to call loopback: start it with `WEBHOOKS_ALLOW_PRIVATE=true`
 * (otherwise the webhooks are refused and the attack says so). Only 127.0.0.1 is called.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const SilentWebhooks = 30;
const PingsEach = 3;
const patienceMs = 60_000;

type Ctx = { base: string; authorization: string };

async function call<T>(ctx: Ctx, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${ctx.base}/api/${path}`, {
    method,
    headers: {
      authorization: ctx.authorization,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

async function close(server: http.Server): Promise<void> {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Registers 30 webhooks to a silent receiver, then times another workspace's delivery. */
/** What the resilience bench starts the server with: its receivers are on this machine's loopback. */
export const serverEnv = { WEBHOOKS_ALLOW_PRIVATE: 'true' };

export default async function attack(ctx: Ctx): Promise<string> {
  let waiting = 0;
  let mostWaiting = 0;
  const silent = http.createServer((request) => {
    waiting += 1;
    mostWaiting = Math.max(mostWaiting, waiting);
    request.socket.once('close', () => (waiting -= 1));
    request.resume();
  });
  let arrived: (() => void) | undefined;
  const delivered = new Promise<void>((resolve) => (arrived = resolve));
  const answering = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(204).end();
      arrived?.();
    });
  });
  const silentUrl = await listen(silent);
  const answeringUrl = await listen(answering);
  const made: number[] = [];
  try {
    const a = await call<{ id: number }>(ctx, 'POST', 'workspaces/', { name: 'Silent webhooks A' });
    const b = await call<{ id: number }>(ctx, 'POST', 'workspaces/', { name: 'Silent webhooks B' });
    if (a.status !== 201 || b.status !== 201) return `could not create the workspaces (HTTP ${a.status}, ${b.status})`;
    for (let i = 0; i < SilentWebhooks; i++) {
      const hook = await call<{ id: number }>(ctx, 'POST', `workspaces/${a.body.id}/webhooks/`, {
        url: silentUrl,
        events: ['unit.created'],
      });
      if (hook.status !== 201) {
        return `webhook ${i + 1} to 127.0.0.1 refused (HTTP ${hook.status}): start the server with WEBHOOKS_ALLOW_PRIVATE=true`;
      }
      made.push(hook.body.id);
    }
    const other = await call<{ id: number }>(ctx, 'POST', `workspaces/${b.body.id}/webhooks/`, {
      url: answeringUrl,
      events: ['unit.created'],
    });
    if (other.status !== 201) return `workspace B's webhook refused (HTTP ${other.status})`;
    made.push(other.body.id);

    for (let round = 0; round < PingsEach; round++) {
      await Promise.all(made.slice(0, SilentWebhooks).map((id) => call(ctx, 'POST', `webhooks/${id}/ping/`)));
    }
    // Let A's tries reach the silent receiver before B's delivery is queued.
    const settle = Date.now() + 5_000;
    while (waiting < 10 && Date.now() < settle) await new Promise((resolve) => setTimeout(resolve, 50));

    const started = performance.now();
    const ping = await call(ctx, 'POST', `webhooks/${other.body.id}/ping/`);
    if (ping.status !== 201) return `workspace B's ping refused (HTTP ${ping.status})`;
    const timedOut = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), patienceMs).unref());
    const outcome = await Promise.race([delivered.then(() => 'delivered' as const), timedOut]);
    const delayMs = Math.round(performance.now() - started);
    const what = `${SilentWebhooks} webhooks of workspace A to a silent receiver (${SilentWebhooks * PingsEach} pings, at most ${mostWaiting} of A's tries waiting on it at once)`;
    return outcome === 'delivered'
      ? `${what}: workspace B's delivery took ${delayMs} ms (goal ≤ 1000 ms)`
      : `${what}: workspace B's delivery did not arrive within ${patienceMs / 1000} s`;
  } finally {
    // Deleting the webhooks drops their queued deliveries, so the server stops trying them.
    await Promise.all(made.map((id) => call(ctx, 'DELETE', `webhooks/${id}/`).catch(() => undefined)));
    await close(silent);
    await close(answering);
  }
}
