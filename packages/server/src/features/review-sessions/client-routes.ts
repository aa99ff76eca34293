import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZClientAccess,
  ZClientAccessQuery,
  ZClientFeedback,
  ZClientFeedbackCreate,
  ZClientFileParams,
  ZClientItemParams,
  ZClientLinkInfo,
  ZClientOpen,
  ZClientSession,
  ZClientTokenParams,
} from '@stageline/shared/review-sessions';
import { rateLimit, type RateRule } from '../../http/rate-limit';
import { sendStoredFile, type FilesContext } from '../attachments';
import { accessedLink, clientFile, clientSession, giveFeedback, linkOf, openLink } from './client';

const tags = ['client review'];
const why =
  'No account: the link’s token is the key. Unknown link 404; revoked or expired 403 saying which. Rate-limited per address.';

/** Calls one client address may make (docs/review-sessions.md): every process counts in PostgreSQL. */
export type ClientLimits = { perIp: RateRule; openPerIp: RateRule };
export const defaultClientLimits: ClientLimits = {
  perIp: { max: 600, windowSeconds: 60 },
  openPerIp: { max: 30, windowSeconds: 60 },
};

/** The access token of a client call: the `x-review-access` header, or `?access=` for `<img>`/`<video>`. */
function accessOf(request: FastifyRequest, query: { access?: string | undefined }): string | undefined {
  const header = request.headers['x-review-access'];
  return (typeof header === 'string' ? header : undefined) ?? query.access;
}

/**
 * The routes of people holding a client link, under their own prefix `/api/client/{token}/`: no
 * other route answers to the link's token or its access token (review-sessions.test.ts tries them all).
 */
export const clientReviewRoutes: FastifyPluginAsyncZod<{ ctx: FilesContext; limits?: ClientLimits }> = async (
  app,
  { ctx, limits = defaultClientLimits },
) => {
  const { db, keys } = ctx;
  const perIp = rateLimit(db, 'client-review', [{ rule: limits.perIp, key: (request) => request.ip }]);
  const openPerIp = rateLimit(db, 'client-review-open', [{ rule: limits.openPerIp, key: (request) => request.ip }]);
  const limited = { preHandler: perIp };

  app.get(
    '/client/:token/',
    {
      ...limited,
      schema: {
        tags,
        summary: 'What a client link asks before it opens: a password or not, and its expiry',
        description: why,
        params: ZClientTokenParams,
        response: { 200: ZClientLinkInfo },
      },
    },
    async (request) => {
      const { link } = await linkOf(db, keys, request.params.token);
      return { needs_password: link.passwordHash !== null, expires_at: link.expiresAt.toISOString() };
    },
  );

  app.post(
    '/client/:token/open/',
    {
      preHandler: [perIp, openPerIp],
      schema: {
        tags,
        summary: 'Open the link (with its password when it has one): an access token for the other client calls',
        description: `${why} A wrong password is 400 naming \`password\` and counted: at 5 in 15 minutes the link locks (429) for the rest of them.`,
        params: ZClientTokenParams,
        body: ZClientOpen.nullish(),
        response: { 200: ZClientAccess },
      },
    },
    async (request) => openLink(db, keys, request.params.token, request.body?.password),
  );

  app.get(
    '/client/:token/session/',
    {
      ...limited,
      schema: {
        tags,
        summary: 'The shared session: items in order with their latest round of files; no member names',
        description: `${why} Needs the access token (header \`x-review-access\` or \`?access=\`): 401 without.`,
        params: ZClientTokenParams,
        querystring: ZClientAccessQuery,
        response: { 200: ZClientSession },
      },
    },
    async (request) => {
      const access = accessOf(request, request.query);
      const open = await accessedLink(db, keys, request.params.token, access);
      return clientSession(db, open, { token: request.params.token, access: access! });
    },
  );

  app.get(
    '/client/:token/files/:file/content/',
    {
      ...limited,
      compress: false,
      schema: {
        tags,
        summary: 'The bytes of a file shown in the shared session (`Range` supported)',
        description: `${why} Only files of the session’s items’ latest rounds (others 404).`,
        params: ZClientFileParams,
        querystring: ZClientAccessQuery,
      },
    },
    async (request, reply) => {
      const open = await accessedLink(db, keys, request.params.token, accessOf(request, request.query));
      return sendStoredFile(ctx.storage, request, reply, await clientFile(ctx, open, request.params.file));
    },
  );

  app.post(
    '/client/:token/items/:item/feedback/',
    {
      ...limited,
      schema: {
        tags,
        summary: 'Comment on an item, approve it or request changes: recorded on its task as a client decision',
        description: `${why} A link without “may comment” or “may decide” refuses that kind (403); an item no longer in the session: 404 saying so, nothing stored.`,
        params: ZClientItemParams,
        querystring: ZClientAccessQuery,
        body: ZClientFeedbackCreate,
        response: { 201: ZClientFeedback.omit({ session: true }) },
      },
    },
    async (request, reply) => {
      const open = await accessedLink(db, keys, request.params.token, accessOf(request, request.query));
      const { name, kind, text } = request.body;
      return reply
        .status(201)
        .send(await giveFeedback(db, open, { itemId: request.params.item, input: { name, kind, text: text ?? '' } }));
    },
  );
};
