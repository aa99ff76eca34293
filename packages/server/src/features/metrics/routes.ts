import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/errors';
import { fromThisMachine } from '../../http/this-machine';
import type { Metrics } from './registry';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /api/metrics` in Prometheus's text format (docs/operations.md, "Metrics"), for a scraper on
 * this machine, or from elsewhere with `Authorization: Bearer <METRICS_TOKEN>`; without a token set it
 * is not there for anyone else (404). Every API request's time is observed, by route pattern.
 */
export function registerMetrics(app: FastifyInstance, { metrics, token }: { metrics: Metrics; token?: string }): void {
  app.addHook('onResponse', (request, reply, done) => {
    if (request.url.startsWith('/api/')) {
      metrics.observeRequest(
        request.method,
        request.routeOptions.url ?? 'unmatched',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
    }
    done();
  });

  const expected = token === undefined ? undefined : digest(token);
  app.get('/api/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!fromThisMachine(request)) {
      if (!expected) throw new AppError('not_found');
      const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!given || !timingSafeEqual(digest(given), expected)) throw new AppError('not_authenticated');
    }
    const text = await metrics.render();
    return reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
