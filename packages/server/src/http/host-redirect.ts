import type { FastifyInstance } from 'fastify';
import { healthPath } from '../features/system';

/**
 * docs/rules.md §API: a request that reaches this server under another host than `PUBLIC_URL` is
 * redirected there with the same path and query. The health check is exempt, because load
 * balancers probe it by address. Only the host is compared: TLS redirects are the proxy's job.
 */
export function registerHostRedirect(app: FastifyInstance, publicUrl: string | undefined): void {
  if (!publicUrl) return;
  const target = new URL(publicUrl);
  app.addHook('onRequest', async (request, reply) => {
    if (request.host.toLowerCase() === target.host.toLowerCase()) return;
    if (request.url.startsWith(healthPath)) return;
    return reply.redirect(`${target.origin}${request.url}`, 308);
  });
}
