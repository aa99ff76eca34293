import { desc } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZOutboxMail } from '@stageline/shared';
import { schema, type Db } from '../../db';

/**
 * GET /api/dev/outbox/: the latest mails, for the dev outbox screen. Registered only when no SMTP
 * server is configured, so a real deployment never exposes its mail.
 */
export const devOutboxRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/dev/outbox/',
    {
      schema: {
        tags: ['dev'],
        summary: 'The latest 50 mails (only without SMTP_URL): read sign-up codes and links in development',
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
