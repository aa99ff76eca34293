import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParams, ZNotificationList, ZNotificationListQuery, ZReadAllQuery } from '@stageline/shared';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { listNotifications, markAllRead, markNotification } from './service';

const bearer = [{ bearer: [] }];
const tags = ['notifications'];
const done = { 204: z.null().describe('Done') };

/** The caller's in-app notifications (docs/rules.md §Notifications, §API). */
export const notificationsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };

  app.get(
    '/notifications/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "The caller's notifications, newest first, with the unread total",
        description:
          '`read=false` lists the unread ones, `read=true` the read ones. `next` is the next offset or null.',
        security: bearer,
        querystring: ZNotificationListQuery,
        response: { 200: ZNotificationList },
      },
    },
    async (request) => listNotifications(db, { userId: callerOf(request).id, query: request.query }),
  );

  app.post(
    '/notifications/read_all/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "Mark all the caller's notifications read",
        description:
          '`task` marks only those about one task: the web app sends it when the task screen opens, ' +
          'so a notification read by following it elsewhere (a mail, a pop-up, the matrix) stops showing unread.',
        security: bearer,
        querystring: ZReadAllQuery,
        response: done,
      },
    },
    async (request, reply) => {
      await markAllRead(db, { userId: callerOf(request).id, taskId: request.query.task });
      return reply.status(204).send(null);
    },
  );

  for (const action of ['read', 'unread'] as const) {
    app.post(
      `/notifications/:id/${action}/`,
      {
        ...signedIn,
        schema: {
          tags,
          summary: `Mark one notification ${action}`,
          description: "Another user's notification answers 404.",
          security: bearer,
          params: ZIdParams,
          response: done,
        },
      },
      async (request, reply) => {
        await markNotification(db, {
          userId: callerOf(request).id,
          notificationId: request.params.id,
          read: action === 'read',
        });
        return reply.status(204).send(null);
      },
    );
  }
};
