import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZDetail,
  ZEmailNotVerified,
  ZEphemeral,
  ZLogin,
  ZLoginResult,
  ZOtpCheck,
  ZOtpSend,
  ZPasswordResetConfirm,
  ZPasswordResetRequest,
  ZPasswordResetValidate,
  ZRefresh,
  ZRegister,
  ZTokens,
} from '@stageline/shared';
import { AppError } from '../../http/errors';
import { mailOrigin } from '../../http/mail-origin';
import { clientInfo, type AuthContext } from './context';
import { countHit, digest, rateLimit, rateLimited } from '../../http/rate-limit';
import type { AuthLimits } from './rate-limits';
import {
  checkCode,
  confirmPasswordReset,
  logIn,
  registerUser,
  requestPasswordReset,
  resendStepCode,
  sendAccountCode,
  validatePasswordResetToken,
} from './service';
import { hasSignedInFrom, revokeByRefreshToken, rotateRefreshToken } from './sessions';

type Options = { ctx: AuthContext; limits: AuthLimits };

const byIp = (request: FastifyRequest) => request.ip;
const normalized = (value: string) => value.trim().toLowerCase();
const bodyField = (field: string) => (request: FastifyRequest) => {
  const value = (request.body as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' && value ? digest(normalized(value)) : undefined;
};
/**
 * The reset budget of one e-mail asked from one client address: requests from elsewhere have their
 * own, so nobody can spend the owner's (docs/security.md, "Password reset").
 */
const emailFromIp = (request: FastifyRequest) => {
  const email = bodyField('email')(request);
  return email === undefined ? undefined : `${email}:${request.ip}`;
};

/** Sign-up, sign-in with codes, tokens, logout and password reset (docs/rules.md §Accounts, §API). */
export const authRoutes: FastifyPluginAsyncZod<Options> = async (app, { ctx, limits }) => {
  app.post(
    '/users/register/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create an account; a 6-digit code is e-mailed to verify the address',
        body: ZRegister,
        response: { 201: ZEphemeral },
      },
      preHandler: rateLimit(ctx.db, 'register', [{ rule: limits.registerPerIp, key: byIp }]),
    },
    async (request, reply) => {
      const result = await registerUser(ctx, { input: request.body, language: request.language });
      return reply.status(201).send(result);
    },
  );

  app.post(
    '/users/login/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a username or e-mail and a password; with 2FA on, answers an ephemeral token',
        description:
          'Answers `access` and `refresh`; with two-factor authentication on, `ephemeral_token` (a code is ' +
          'e-mailed, finish with otp/check/). Wrong credentials: 400 `invalid_credentials`. Unverified e-mail: ' +
          '403 `email_not_verified` with an `ephemeral_token` (a new code is e-mailed).',
        body: ZLogin,
        response: { 200: ZLoginResult, 403: ZEmailNotVerified },
      },
      preHandler: rateLimit(ctx.db, 'login', [{ rule: limits.loginPerIp, key: byIp }]),
    },
    async (request) => {
      const result = await logIn(ctx, {
        login: request.body.username,
        password: request.body.password,
        client: clientInfo(request),
        failureRule: limits.loginFailuresPerAccount,
      });
      return 'detail' in result && result.detail ? { ...result, detail: request.t(result.detail) } : result;
    },
  );

  app.post(
    '/otp/check/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Check an e-mailed code after sign-up (verifies the e-mail) or a 2FA login; signs in',
        body: ZOtpCheck,
        response: { 200: ZTokens },
      },
      preHandler: rateLimit(ctx.db, 'otp-check', [
        { rule: limits.otpCheckPerIp, key: byIp },
        { rule: limits.otpCheckPerToken, key: bodyField('ephemeral_token') },
      ]),
    },
    async (request) =>
      checkCode(ctx, {
        ephemeralToken: request.body.ephemeral_token,
        code: request.body.code,
        client: clientInfo(request),
      }),
  );

  app.post(
    '/otp/send/',
    {
      schema: {
        tags: ['auth'],
        summary: 'E-mail a new code: for a sign-up or 2FA step (ephemeral_token), or signed in for a purpose',
        description:
          'With `ephemeral_token`: a new code for that step. Signed in: a code for `purpose` ' +
          '(`password_change`, `email_change`, `two_factor`; without it, a code any of them accepts). ' +
          'A new code is sent at most every 30 seconds (429 with Retry-After).',
        body: ZOtpSend.optional(),
        security: [{ bearer: [] }, {}],
        response: { 200: ZDetail },
      },
      preHandler: rateLimit(ctx.db, 'otp-send', [{ rule: limits.otpSendPerIp, key: byIp }]),
    },
    async (request) => {
      const body = request.body ?? {};
      if (body.ephemeral_token) {
        await resendStepCode(ctx, { ephemeralToken: body.ephemeral_token });
      } else {
        const caller = await app.readCaller(request);
        if (!caller) throw new AppError('not_authenticated');
        if (caller.via !== 'session') {
          throw new AppError('permission_denied', 'API tokens cannot do this: sign in to the app.');
        }
        await sendAccountCode(ctx, { userId: caller.id, purpose: body.purpose ?? 'account' });
      }
      return { detail: request.t('Code sent, check your email.') };
    },
  );

  app.post(
    '/token/refresh/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Rotate a refresh token; reusing an old one revokes its whole session',
        body: ZRefresh,
        response: { 200: ZTokens },
      },
    },
    async (request) => rotateRefreshToken(ctx, { refresh: request.body.refresh, client: clientInfo(request) }),
  );

  app.post(
    '/users/logout/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: the refresh token and its session are revoked',
        body: ZRefresh,
        response: { 204: z.null().describe('Signed out') },
      },
    },
    async (request, reply) => {
      await revokeByRefreshToken(ctx, request.body.refresh);
      return reply.status(204).send(null);
    },
  );

  const resetTokenLimit = rateLimit(ctx.db, 'password-reset-token', [{ rule: limits.resetPerIp, key: byIp }]);

  app.post(
    '/users/password_reset/',
    {
      schema: {
        tags: ['auth'],
        summary: 'E-mail a password-reset link; answers the same whether or not the address is registered',
        body: ZPasswordResetRequest,
        response: { 200: ZDetail },
      },
      preHandler: [
        rateLimit(ctx.db, 'password-reset', [{ rule: limits.resetPerIp, key: byIp }]),
        // A Host that cannot carry a link is refused before any e-mail's budget is spent.
        async (request) => void mailOrigin(ctx.config, request),
        rateLimit(ctx.db, 'password-reset-mail', [{ rule: limits.resetPerEmailFromIp, key: emailFromIp }]),
        async (request) => {
          const { email } = request.body;
          if (await hasSignedInFrom(ctx.db, { email, ip: request.ip })) return;
          const count = await countHit(
            ctx.db,
            `password-reset-email:${digest(normalized(email))}`,
            limits.resetPerEmail,
          );
          if (count.hits > limits.resetPerEmail.max) throw rateLimited(count.retryAfter);
        },
      ],
    },
    async (request) => {
      await requestPasswordReset(ctx, { email: request.body.email, origin: mailOrigin(ctx.config, request) });
      return { detail: request.t('If an account with this e-mail exists, we sent it a link to reset the password.') };
    },
  );

  app.post(
    '/users/password_reset/validate_token/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Is a password-reset link still usable (400 invalid_token otherwise)',
        body: ZPasswordResetValidate,
        response: { 200: ZDetail },
      },
      preHandler: resetTokenLimit,
    },
    async (request) => {
      await validatePasswordResetToken(ctx, request.body);
      return { detail: request.t('Token is valid') };
    },
  );

  app.post(
    '/users/password_reset/confirm/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password from a reset link: single use, signs out every session, revokes every API token',
        body: ZPasswordResetConfirm,
        response: { 200: ZDetail },
      },
      preHandler: resetTokenLimit,
    },
    async (request) => {
      await confirmPasswordReset(ctx, { ...request.body, origin: mailOrigin(ctx.config, request) });
      return { detail: request.t('Password changed') };
    },
  );
};
