import { desc } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZOutboxMail } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';

/** Loopback addresses: the dev outbox answers only callers on the server's own machine. */
const loopback = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * GET /api/dev/outbox/: the latest mails, for the dev outbox screen. Registered only when no SMTP
 * server is configured, and it answers only requests from this machine (404 to anyone else): the
 * mails hold sign-in codes and password-reset links (docs/security.md).
 */
export const devOutboxRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/dev/outbox/',
    {
      onRequest: async (request) => {
        if (!loopback.test(request.ip)) throw new AppError('not_found');
      },
      schema: {
        tags: ['dev'],
        summary:
          'The latest 50 mails (only without SMTP_URL, only from this machine): read sign-up codes and links in development',
        response: { 200: z.array(ZOutboxMail) },
      },
    },
    async () => {
      const rows = await db
        .select()
        .from(schema.mailOutbox)
        .orderBy(desc(schema.mailOutbox.createdAt), desc(schema.mailOutbox.id))
        .limit(50);
      return rows.map((row) => ({
        id: row.id,
        to: row.to,
        subject: row.subject,
        text: row.text,
        created_at: row.createdAt.toISOString(),
      }));
    },
  );
};
