import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db';
import type { SessionCache } from '../features/auth';
import { AppError } from '../http/errors';
import { fromThisMachine } from '../http/this-machine';
import { AdminSecretHeader } from './secret';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `POST /api/admin/`: the admin commands run by the server itself, for the CLI when it cannot open
 * the database (the embedded one is locked by the running server; docs/operations.md, "Admin
 * commands"). Only from this machine, and only with the secret the server wrote into its data
 * directory at start, which only the server's own OS user can read: whoever may read the data
 * directory may read everything anyway. Hidden from the API's documentation.
 */
export const adminRoute: FastifyPluginAsyncZod<{
  database: Database;
  s3Url: string | undefined;
  sessionCache: SessionCache;
  secret: string;
}> = async (app, { database, s3Url, sessionCache, secret }) => {
  const expected = digest(secret);
  app.post(
    '/admin/',
    {
      schema: {
        hide: true,
        body: z.object({ command: z.string().max(40), args: z.array(z.string().max(4096)).max(4) }),
      },
    },
    async (request) => {
      const given = request.headers[AdminSecretHeader];
      if (!fromThisMachine(request) || typeof given !== 'string' || !timingSafeEqual(digest(given), expected))
        throw new AppError('not_found');
      // Loaded when first used: a server that is never asked does not load tar and the backup code.
      const { ArchiveError } = await import('./archive');
      const { runAdminCommand, UsageError } = await import('./commands');
      try {
        const lines = await runAdminCommand(
          { database, s3Url, sessionCache, inServer: true },
          request.body.command,
          request.body.args,
        );
        return { ok: true, lines };
      } catch (error) {
        if (error instanceof UsageError || error instanceof ArchiveError) return { ok: false, lines: [error.message] };
        throw error;
      }
    },
  );
};
