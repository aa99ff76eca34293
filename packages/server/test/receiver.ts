import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a webhook receiver got: the headers and the raw body of one POST. */
export type Received = { headers: http.IncomingHttpHeaders; body: string; json: Record<string, unknown> };

/**
 * A real HTTP server on 127.0.0.1 that webhooks deliver to (no mock of the network): it records
 * every request and answers with the status `respond` picks (200 by default).
 */
export async function startReceiver(respond: (received: Received, index: number) => number = () => 200) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const entry: Received = { headers: request.headers, body, json: JSON.parse(body) as Record<string, unknown> };
      received.push(entry);
      const status = respond(entry, received.length - 1);
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'thanks' : 'not now');
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  /** Waits until `count` requests matching `match` arrived (or fails after `timeoutMs`). */
  async function waitFor(count: number, match: (r: Received) => boolean = () => true, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = received.filter(match);
      if (found.length >= count) return found;
      if (Date.now() > deadline) {
        throw new Error(
          `Expected ${count} deliveries, got ${found.length}: ${received.map((r) => r.json.event).join(', ')}`,
        );
      }
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  return {
    url,
    received,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/**
 * A receiver on 127.0.0.1 that takes every request and never answers (a stuck endpoint): it counts
 * the requests and the most waiting at once; `close` cuts the connections still waiting.
 */
export async function startSilentReceiver() {
  let requests = 0;
  let waiting = 0;
  let mostWaiting = 0;
  const server = http.createServer((request) => {
    requests += 1;
    waiting += 1;
    mostWaiting = Math.max(mostWaiting, waiting);
    request.socket.once('close', () => (waiting -= 1));
    request.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/silent`,
    requests: () => requests,
    mostWaiting: () => mostWaiting,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
