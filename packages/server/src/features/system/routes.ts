import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZHealth, ZPublicConfig } from '@stageline/shared';
import type { Config } from '../../config';
import type { Database } from '../../db';
import { version } from '../../version';

export const healthPath = '/api/health/';

type Options = { config: Config; database: Database };

/** Health for load balancers and the public configuration the web app reads before it renders. */
export const systemRoutes: FastifyPluginAsyncZod<Options> = async (app, { config, database }) => {
  app.get(
    '/health/',
    {
      schema: {
        tags: ['system'],
        summary: 'Is this process able to serve: database reachable, running version',
        response: { 200: ZHealth, 503: ZHealth },
      },
    },
    async (request, reply) => {
      let ok = true;
      try {
        await database.ping();
      } catch (error) {
        ok = false;
        request.log.error({ err: error }, 'health check: database unreachable');
      }
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        version,
        database: { kind: database.kind, ok },
      });
    },
  );

  app.get(
    '/config/',
    {
      schema: {
        tags: ['system'],
        summary: 'Public settings the web app needs before it renders',
        response: { 200: ZPublicConfig },
      },
    },
    async () => ({
      version,
      maintenance: config.maintenance,
      debug: config.debug,
      publicUrl: config.publicUrl ?? null,
      maxUploadMb: Math.floor(config.maxUploadBytes / (1024 * 1024)),
      maxUploadsInFlight: config.maxUploadsInFlight,
    }),
  );
};
