import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZApiToken, ZApiTokenCreate, ZApiTokenCreated, ZIdParams } from '@stageline/shared';
import { createApiToken, listApiTokens, revokeApiToken } from './api-tokens';
import { callerOf } from './authenticate';
import type { AuthContext } from './context';

const bearer = [{ bearer: [] }];

/**
 * Personal API tokens (docs/integrations.md). Managed only by a signed-in person: a token cannot
 * make, list or revoke tokens.
 */
export const apiTokenRoutes: FastifyPluginAsyncZod<{ ctx: AuthContext }> = async (app, { ctx }) => {
  const sessionOnly = { onRequest: app.authenticateSession };

  app.post(
    '/users/me/tokens/',
    {
      ...sessionOnly,
      schema: {
        tags: ['api tokens'],
        summary: 'Create a personal API token; its secret is in this answer only',
        description:
          'Use it as `Authorization: Bearer stl_…` on any route, with your rights. A `read` token gets 403 on ' +
          'anything but GET; a revoked or expired one gets 401. Tokens cannot manage tokens, the password, ' +
          'the e-mail, two-factor authentication, sessions or linked accounts.\n\n' +
          'Example: `curl -H "Authorization: Bearer stl_…" https://stageline.example.com/api/tasks/?assignee=me`',
        security: bearer,
        body: ZApiTokenCreate,
        response: { 201: ZApiTokenCreated },
      },
    },
    async (request, reply) => {
      const created = await createApiToken(ctx.db, ctx.keys, { userId: callerOf(request).id, input: request.body });
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/users/me/tokens/',
    {
      ...sessionOnly,
      schema: {
        tags: ['api tokens'],
        summary: 'Your API tokens, newest first, with when each was last used (never the secret)',
        security: bearer,
        response: { 200: z.array(ZApiToken) },
      },
    },
    async (request) => listApiTokens(ctx.db, callerOf(request).id),
  );

  app.delete(
    '/users/me/tokens/:id/',
    {
      ...sessionOnly,
      schema: {
        tags: ['api tokens'],
        summary: 'Revoke an API token: it stops working at once',
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null().describe('Revoked') },
      },
    },
    async (request, reply) => {
      await revokeApiToken(ctx.db, { userId: callerOf(request).id, tokenId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
