import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/** Where the request being served came from: what every audit entry it writes records. */
export type AuditClient = { ip: string | null; userAgent: string | null };

const scope = new AsyncLocalStorage<AuditClient>();

/**
 * Opens the request's audit scope, so services write the address and user agent into their entries
 * without every call passing them down (docs/history-and-audit.md). Registered inside the `/api`
 * plugin, after the admission queue: a request let through later runs in its own scope, never in
 * the one of the request whose end let it through.
 */
export function registerAuditScope(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const agent = request.headers['user-agent'];
    scope.run({ ip: request.ip ? request.ip.slice(0, 64) : null, userAgent: agent ? agent.slice(0, 512) : null }, done);
  });
}

/** The client of the request being served; nulls outside a request (jobs, the demo seed). */
export function currentClient(): AuditClient {
  return scope.getStore() ?? { ip: null, userAgent: null };
}
