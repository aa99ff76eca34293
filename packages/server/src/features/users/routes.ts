import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Limits,
  ZAvatarSaved,
  ZDetail,
  ZEmailChange,
  ZEmailConfirm,
  ZEmailConfirmed,
  ZIdParams,
  ZMe,
  ZMessage,
  ZPasswordChange,
  ZSession,
  ZTwoFactor,
  ZUserPatch,
  zWholeNumber,
} from '@stageline/shared';
import { AppError } from '../../http/errors';
import { recordAccountAudit } from '../audit';
import { mailOrigin } from '../../http/mail-origin';
import { readUploadedFile } from '../../http/upload';
import { callerOf, listSessions, revokeSession, revokeUserSessions, type AuthContext } from '../auth';
import { clearAvatar, encodeAvatar, loadAvatar, saveAvatar } from './avatar';
import { avatarUrl } from './presenter';
import { changePassword, confirmEmailChange, getMe, requestEmailChange, setTwoFactor, updateProfile } from './service';

const bearer = [{ bearer: [] }];

/** The signed-in user's account: profile, password, e-mail, 2FA, sessions and avatar. */
export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AuthContext }> = async (app, { ctx }) => {
  await app.register(multipart, { limits: { fileSize: Limits.avatar.maxBytes, files: 1, fields: 5 } });
  // onRequest, so a signed-out call is a 401 before its body is even read or validated.
  const signedIn = { onRequest: app.authenticate };
  // What only a person signed in to the app may do: never a personal API token.
  const sessionOnly = { onRequest: app.authenticateSession };

  app.get(
    '/users/me/',
    {
      ...signedIn,
      schema: { tags: ['users'], summary: 'The signed-in user', security: bearer, response: { 200: ZMe } },
    },
    async (request) => getMe(ctx, callerOf(request).id),
  );

  app.patch(
    '/users/:id/',
    {
      ...signedIn,
      schema: {
        tags: ['users'],
        summary: 'Edit your own profile (any other id answers 404)',
        security: bearer,
        params: ZIdParams,
        body: ZUserPatch,
        response: { 200: ZMe },
      },
    },
    async (request) => updateProfile(ctx, { actor: callerOf(request), userId: request.params.id, patch: request.body }),
  );

  app.post(
    '/users/me/password/',
    {
      ...sessionOnly,
      schema: {
        tags: ['users'],
        summary: 'Change the password with a code from otp/send/ (purpose password_change); other sessions end',
        description:
          'With `revoke_api_tokens: true` every personal API token is revoked too. The "password changed" mail ' +
          'names the tokens that still work.',
        security: bearer,
        body: ZPasswordChange,
        response: { 200: ZDetail },
      },
    },
    async (request) => {
      await changePassword(ctx, {
        actor: callerOf(request),
        code: request.body.code,
        password: request.body.password,
        revokeApiTokens: request.body.revoke_api_tokens ?? false,
        origin: mailOrigin(ctx.config, request),
      });
      return { detail: request.t('Password changed') };
    },
  );

  app.post(
    '/users/me/email/',
    {
      ...sessionOnly,
      schema: {
        tags: ['users'],
        summary: 'Ask to change the e-mail (code of purpose email_change); a confirmation link goes to the new one',
        description:
          'An unchanged e-mail changes nothing; with two-factor authentication off the e-mail cannot change (400).',
        security: bearer,
        body: ZEmailChange,
        response: { 200: ZDetail },
      },
    },
    async (request) => {
      const outcome = await requestEmailChange(ctx, {
        actor: callerOf(request),
        email: request.body.email,
        code: request.body.code,
        origin: mailOrigin(ctx.config, request),
      });
      return {
        detail:
          outcome === 'unchanged'
            ? request.t('Email was not changed')
            : request.t('We sent a confirmation link to the new e-mail address.'),
      };
    },
  );

  app.post(
    '/users/me/email/confirm/',
    {
      ...sessionOnly,
      schema: {
        tags: ['users'],
        summary: 'Apply an e-mail change from the link sent to the new address (/change_email?token=…)',
        security: bearer,
        body: ZEmailConfirm,
        response: { 200: ZEmailConfirmed },
      },
    },
    async (request) => {
      const status = await confirmEmailChange(ctx, { actor: callerOf(request), token: request.body.token });
      return {
        status,
        detail:
          status === 'changed' ? request.t('E-mail changed') : request.t('This e-mail change is already confirmed.'),
      };
    },
  );

  app.post(
    '/users/me/two_factor/',
    {
      ...sessionOnly,
      schema: {
        tags: ['users'],
        summary: 'Turn two-factor authentication on or off with a code from otp/send/ (purpose two_factor)',
        security: bearer,
        body: ZTwoFactor,
        response: { 200: ZDetail },
      },
    },
    async (request) => {
      await setTwoFactor(ctx, { actor: callerOf(request), enabled: request.body.enabled, code: request.body.code });
      return {
        detail: request.body.enabled
          ? request.t('Two-factor authentication is on.')
          : request.t('Two-factor authentication is off.'),
      };
    },
  );

  app.get(
    '/users/me/sessions/',
    {
      ...sessionOnly,
      schema: {
        tags: ['users'],
        summary: 'Signed-in devices; `current` is the one making this call',
        security: bearer,
        response: { 200: z.array(ZSession) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return listSessions(ctx.db, { userId: caller.id, currentSessionId: caller.sessionId });
    },
  );

  app.delete(
    '/users/me/sessions/:id/',
    {
      ...sessionOnly,
      schema: {
        tags: ['users'],
        summary: 'Sign a device out: its refresh tokens stop working',
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null().describe('Revoked') },
      },
    },
    async (request, reply) => {
      const userId = callerOf(request).id;
      const revoked = await revokeSession(ctx, { userId, sessionId: request.params.id });
      if (!revoked) throw new AppError('not_found');
      await recordAccountAudit(ctx.db, userId, {
        action: 'auth.session_revoked',
        actorId: userId,
        target: { kind: 'session', id: request.params.id },
      });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/users/me/sessions/end_others/',
    {
      ...sessionOnly,
      schema: {
        tags: ['users'],
        summary: 'Sign out everywhere else: every session but the one making this call ends',
        security: bearer,
        response: { 200: z.object({ ended: z.number().int() }) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const ended = await revokeUserSessions(ctx, { userId: caller.id, exceptSessionId: caller.sessionId });
      if (ended > 0) {
        await recordAccountAudit(ctx.db, caller.id, {
          action: 'auth.sessions_revoked',
          actorId: caller.id,
          details: { ended },
        });
      }
      return { ended };
    },
  );

  app.post(
    '/users/me/avatar/',
    {
      ...signedIn,
      schema: {
        tags: ['users'],
        summary: 'Upload an avatar: multipart field `file`, PNG, JPEG or WebP up to 2 MB (413 above)',
        consumes: ['multipart/form-data'],
        security: bearer,
        response: { 200: ZAvatarSaved },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const image = await encodeAvatar(await readUploadedFile(request, 'file'));
      const version = await saveAvatar(ctx.db, { userId: caller.id, image });
      return { message: request.t('Avatar saved'), avatar: avatarUrl(caller.id, version)! };
    },
  );

  app.delete(
    '/users/me/avatar/',
    {
      ...signedIn,
      schema: { tags: ['users'], summary: 'Remove the avatar', security: bearer, response: { 200: ZMessage } },
    },
    async (request) => {
      await clearAvatar(ctx.db, callerOf(request).id);
      return { message: request.t('Avatar cleared') };
    },
  );

  app.get(
    '/users/:id/avatar/',
    {
      schema: {
        tags: ['users'],
        summary: "A user's avatar (image/webp); cached for a year when asked with its current `v`",
        params: ZIdParams,
        querystring: z.object({ v: zWholeNumber({ min: 0, max: Limits.maxId }).optional() }),
        produces: ['image/webp'],
      },
    },
    async (request, reply) => {
      const avatar = await loadAvatar(ctx.db, request.params.id);
      if (!avatar) throw new AppError('not_found');
      const current = request.query.v !== undefined && request.query.v === avatar.version;
      return reply
        .type(avatar.contentType)
        .header('cache-control', current ? 'public, max-age=31536000, immutable' : 'no-cache')
        .send(avatar.image);
    },
  );
};
