import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZSearchQuery, ZSearchResult } from '@stageline/shared';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { search } from './service';

/** The command palette's search across the caller's workspaces. */
export const searchRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/search/',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['search'],
        summary: 'Workspaces, projects, pipelines, units and tasks named like `q`, in your workspaces',
        description:
          'Every word of `q` must appear in the name (a task: its unit’s or stage’s name). Names starting with ' +
          '`q` come first. At most `limit` of each kind.',
        security: [{ bearer: [] }],
        querystring: ZSearchQuery,
        response: { 200: ZSearchResult },
      },
    },
    async (request) => search(db, { userId: callerOf(request).id, q: request.query.q, limit: request.query.limit }),
  );
};
