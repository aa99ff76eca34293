import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZDetail,
  ZOAuthCallbackQuery,
  ZOAuthLinkStart,
  ZOAuthLoginResult,
  ZOAuthProvider,
  ZOAuthProviderParams,
  ZOAuthStartQuery,
} from '@stageline/shared';
import { AppError } from '../../http/errors';
import { callerOf, clientInfo, publicOrigin, type AuthContext } from '../auth';
import { createOAuthClients } from './client';
import { clearFlowCookie, readFlowCookie, setFlowCookie } from './flow-cookie';
import { finishFlow, startFlow, unlinkAccount, type OAuthContext } from './service';

const bearer = [{ bearer: [] }];

/**
 * Sign-in and account linking through other services (docs/rules.md §Accounts;
 * `oauth/login/{provider}/`, decision 33): authorization code with PKCE, state and nonce, via openid-client.
 */
export const oauthRoutes: FastifyPluginAsyncZod<{ ctx: AuthContext }> = async (app, { ctx: auth }) => {
  const ctx: OAuthContext = { ...auth, clients: createOAuthClients(auth.config.oauthProviders) };
  const origin = (request: FastifyRequest) => publicOrigin(ctx.config, request);
  const secure = (request: FastifyRequest) => origin(request).startsWith('https:');

  app.get(
    '/oauth/providers/',
    {
      schema: {
        tags: ['oauth'],
        summary: 'The configured sign-in providers, in button order',
        response: { 200: z.array(ZOAuthProvider) },
      },
    },
    async () => [...ctx.clients.values()].map(({ id, name }) => ({ id, name })),
  );

  app.get(
    '/oauth/login/:provider/start/',
    {
      schema: {
        tags: ['oauth'],
        summary: "Start signing in with a provider: 302 to the provider's authorization page",
        description:
          'Sets the flow cookie (HttpOnly, SameSite=Lax, 10 minutes) holding the PKCE verifier, state and ' +
          'nonce. The provider sends the browser back to `/oauth/{provider}`, whose screen calls ' +
          '`GET oauth/login/{provider}/`. If the provider cannot be reached, 302 to that screen with `error`.',
        params: ZOAuthProviderParams,
        querystring: ZOAuthStartQuery,
      },
    },
    async (request, reply) => {
      const { provider } = request.params;
      try {
        const flow = await startFlow(ctx, { provider, origin: origin(request), next: request.query.next });
        setFlowCookie(reply, flow.flowToken, secure(request));
        return reply.redirect(flow.url, 302);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'oauth_failed') throw error;
        // A browser navigation: show the failure on the return screen rather than as raw JSON.
        const back = new URL(`${origin(request)}/oauth/${encodeURIComponent(provider)}`);
        back.searchParams.set('error', 'temporarily_unavailable');
        back.searchParams.set('error_description', request.t(error.detail));
        return reply.redirect(back.href, 302);
      }
    },
  );

  app.post(
    '/oauth/link/:provider/',
    {
      onRequest: app.authenticateSession,
      schema: {
        tags: ['oauth'],
        summary: 'Start linking an account of a provider to the signed-in user: the URL to navigate to',
        description: 'Sets the flow cookie as `start/` does; the return screen then answers `linked`.',
        security: bearer,
        params: ZOAuthProviderParams,
        response: { 200: ZOAuthLinkStart },
      },
    },
    async (request, reply) => {
      const flow = await startFlow(ctx, {
        provider: request.params.provider,
        origin: origin(request),
        next: '/app/profile',
        linkUserId: callerOf(request).id,
      });
      setFlowCookie(reply, flow.flowToken, secure(request));
      return { url: flow.url };
    },
  );

  app.get(
    '/oauth/login/:provider/',
    {
      schema: {
        tags: ['oauth'],
        summary: "Finish signing in (or linking) with the provider's code",
        description:
          'Needs the flow cookie of the browser that started. Answers `access` and `refresh` (with `linked` ' +
          'when an existing account was linked by its verified e-mail), `ephemeral_token` when 2FA is on (a ' +
          'code is e-mailed; finish with otp/check/), or `linked` for a link started from the profile. ' +
          'Errors: 400 `oauth_state_invalid` (no, forged or expired flow), 400 `oauth_failed`, 400 ' +
          '`oauth_email_missing`, 409 `oauth_email_taken` (an unverified e-mail of an existing account), ' +
          '409 `oauth_account_taken`, 409 `oauth_already_linked`.',
        params: ZOAuthProviderParams,
        querystring: ZOAuthCallbackQuery.extend({ iss: z.string().max(2048).optional() }),
        response: { 200: ZOAuthLoginResult },
      },
    },
    async (request, reply) => {
      clearFlowCookie(reply, secure(request));
      return finishFlow(ctx, {
        provider: request.params.provider,
        ...request.query,
        flowToken: readFlowCookie(request),
        client: clientInfo(request),
        language: request.language,
      });
    },
  );

  app.delete(
    '/users/me/oauth/:provider/',
    {
      onRequest: app.authenticateSession,
      schema: {
        tags: ['users'],
        summary: 'Unlink the account of a provider; refused (400) when it is the last way to sign in',
        security: bearer,
        params: ZOAuthProviderParams,
        response: { 200: ZDetail },
      },
    },
    async (request) => {
      await unlinkAccount(ctx, { userId: callerOf(request).id, provider: request.params.provider });
      return { detail: request.t('Account unlinked.') };
    },
  );
};
