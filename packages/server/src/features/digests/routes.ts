import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZDetail, ZUnsubscribe } from '@stageline/shared';
import { eq } from 'drizzle-orm';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { rateLimit } from '../../http/rate-limit';
import type { TokenKeys } from '../auth';
import { verifyUnsubscribe } from './unsubscribe-token';

export const invalidUnsubscribeLink = 'This unsubscribe link is invalid or has expired.';

/** Turns a user's e-mail digests off (`never`) for a valid unsubscribe token. */
export async function unsubscribe(db: Db, keys: TokenKeys, token: string | undefined): Promise<void> {
  const userId = token ? verifyUnsubscribe(keys, token) : null;
  if (userId === null) throw new AppError('invalid_token', invalidUnsubscribeLink);
  const updated = await db
    .update(schema.users)
    .set({ emailFrequency: 'never', updatedAt: new Date() })
    .where(eq(schema.users.id, userId))
    .returning({ id: schema.users.id });
  if (updated.length === 0) throw new AppError('invalid_token', invalidUnsubscribeLink);
}

/**
 * `POST users/unsubscribe/` needs no sign-in: the token of a digest's link is the proof. It takes
 * `{token}` as JSON (the web page), or — RFC 8058 one-click, what mail clients send for the
 * `List-Unsubscribe` header — `?token=` with the form body `List-Unsubscribe=One-Click`.
 */
export const digestsRoutes: FastifyPluginAsyncZod<{ db: Db; keys: TokenKeys }> = async (app, { db, keys }) => {
  // Only this plugin (encapsulated) reads form bodies: the one-click POST of mail clients.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.post(
    '/users/unsubscribe/',
    {
      schema: {
        tags: ['users'],
        summary: 'Turn e-mail digests off with the token of a digest link (no sign-in)',
        querystring: z.object({ token: ZUnsubscribe.shape.token.optional() }),
        body: ZUnsubscribe.partial().extend({ 'List-Unsubscribe': z.literal('One-Click').optional() }),
        response: { 200: ZDetail },
      },
      preHandler: rateLimit(db, 'unsubscribe', [
        { rule: { max: 30, windowSeconds: 60 }, key: (request) => request.ip },
      ]),
    },
    async (request) => {
      await unsubscribe(db, keys, request.body.token ?? request.query.token);
      return { detail: request.t('You are unsubscribed from e-mail digests.') };
    },
  );
};
