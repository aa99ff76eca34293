import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tallyRequest } from '../db';

const tallyOf = Symbol('statements');
type Tallied = FastifyRequest & { [tallyOf]?: Readonly<{ count: number; ms: number }> };

/**
 * Logs an API request slower than `thresholdMs` with its statements' count and time
 * (docs/operations.md, "Slow requests"): whether it waited, worked in JavaScript or in the database
 * reads off one line, by route pattern and with its request id.
 */
export function registerSlowRequestLog(app: FastifyInstance, { thresholdMs }: { thresholdMs: number }): void {
  app.addHook('onRequest', (request: Tallied, _reply, done) => {
    if (!request.url.startsWith('/api/')) return done();
    request[tallyOf] = tallyRequest(done);
  });
  app.addHook('onResponse', (request: Tallied, reply, done) => {
    const tally = request[tallyOf];
    if (tally && reply.elapsedTime >= thresholdMs) {
      request.log.warn(
        {
          route: request.routeOptions.url ?? 'unmatched',
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
          statements: tally.count,
          statementMs: Math.round(tally.ms),
        },
        'slow request',
      );
    }
    done();
  });
}
