import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HistoryLimits, ZIdParams, ZRecordChangePage, ZRecordChangeQuery } from '@stageline/shared';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { listHistory } from './service';

const bearer = [{ bearer: [] }];
const about =
  'Every change as who, when, `field`, `old` → `new`, newest first: `status`, `assignees`, `reviewers` (user ids), ' +
  '`due_date`, `estimate`, `name`, `description`, `file_added`/`file_removed`, `time_logged`, `comment_edited`/' +
  '`comment_deleted`, and `field:<key>` for custom fields. `only=status` keeps status changes, `only=fields` changes ' +
  `of values. A page holds \`limit\` entries (${HistoryLimits.page.default} by default, at most ${HistoryLimits.page.max}); ` +
  'pass `next` as `before` for the next. Anyone who sees the record; others 404. A `history` live event tells open ' +
  'timelines of new entries.';

/** The history of units and tasks (docs/history-and-audit.md). */
export const recordHistoryRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };

  app.get(
    '/units/:id/history/',
    {
      ...signedIn,
      schema: {
        tags: ['units'],
        summary: "A unit's history, its tasks' changes included",
        description: about,
        security: bearer,
        params: ZIdParams,
        querystring: ZRecordChangeQuery,
        response: { 200: ZRecordChangePage },
      },
    },
    async (request) =>
      listHistory(db, { userId: callerOf(request).id, of: { unit: request.params.id }, query: request.query }),
  );

  app.get(
    '/tasks/:id/history/',
    {
      ...signedIn,
      schema: {
        tags: ['tasks'],
        summary: "A task's history of changes",
        description: about,
        security: bearer,
        params: ZIdParams,
        querystring: ZRecordChangeQuery,
        response: { 200: ZRecordChangePage },
      },
    },
    async (request) =>
      listHistory(db, { userId: callerOf(request).id, of: { task: request.params.id }, query: request.query }),
  );
};
