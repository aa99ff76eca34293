import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Ends, when the app closes, the connections that never sent a request, and refuses those that
 * arrive while it closes. Browsers and fetch open spare connections ahead of need (fetch even as
 * its streams are aborted); Node counts them neither idle nor busy, so a graceful close waited for
 * them until `headersTimeout` — a restart held up for a minute for nothing. Connections with a
 * request in flight still finish it; idle keep-alive ones Fastify closes itself.
 */
export function registerSpareConnectionClose(app: FastifyInstance) {
  const unused = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    unused.add(socket);
    socket.once('close', () => unused.delete(socket));
  });
  app.server.on('request', (request: { socket: Socket }) => unused.delete(request.socket));
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of unused) socket.destroy();
  });
}
