import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Limits,
  ZId,
  ZIdParams,
  ZWebhook,
  ZWebhookCreate,
  ZWebhookCreated,
  ZWebhookDelivery,
  ZWebhookPatch,
  zWholeNumber,
} from '@stageline/shared';
import type { Database } from '../../db';
import { callerOf } from '../auth';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listWebhooks,
  ping,
  redeliver,
  resumeWebhook,
  rotateSecret,
  updateWebhook,
} from './service';

const bearer = [{ bearer: [] }];
const tags = ['webhooks'];
const who = 'Admins and the owner of the workspace; others get 403, non-members 404.';

const deliveryExample = {
  event: 'task.status_changed',
  delivery: '1042',
  created_at: '2026-11-23T10:15:00.000Z',
  workspace: 7,
  data: {
    task: { id: 311, unit: 88, stage: 12, pipeline: 5, status: 'review' },
    from: 'in_progress',
    to: 'review',
    actor: { id: 3, username: 'anna' },
  },
};

const about =
  'After a change commits, every active webhook subscribed to its event gets `POST <url>` with a JSON body ' +
  '`{event, delivery, created_at, workspace, data}`, signed as Standard Webhooks (standardwebhooks.com) sign: ' +
  '`webhook-id` (the delivery), `webhook-timestamp` (Unix seconds of the try) and `webhook-signature: v1,<base64 ' +
  'HMAC-SHA256 of "<id>.<timestamp>.<body>" keyed with the base64-decoded part of the whsec_ secret>`, plus ' +
  '`X-Stageline-Event`. A try that fails or answers non-2xx is retried with backoff, 8 tries over about a day; ' +
  `${Limits.webhooks.pauseAfterFailures} failed tries in a row pause the webhook until an admin resumes it; ` +
  'a webhook failing for a day is turned off. A batch of units sends one `unit.batch_created`. Only public ' +
  "unicast addresses are called, never the server's own, unless the server sets WEBHOOKS_ALLOW_PRIVATE. " +
  `A workspace has at most ${Limits.webhooks.perWorkspace} webhooks. ` +
  `Example body: \`${JSON.stringify(deliveryExample)}\``;

/** Webhooks of a workspace and their delivery log (docs/integrations.md). */
export const webhooksRoutes: FastifyPluginAsyncZod<{ database: Database; allowPrivate: boolean }> = async (
  app,
  { database, allowPrivate },
) => {
  const db = database.db;
  const ctx = { db, allowPrivate };
  const signedIn = { onRequest: app.authenticate };

  app.post(
    '/workspaces/:id/webhooks/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: `Add a webhook (at most ${Limits.webhooks.perWorkspace} a workspace); its signing secret is in this answer only`,
        description: `${who}\n\n${about}`,
        security: bearer,
        params: ZIdParams,
        body: ZWebhookCreate,
        response: { 201: ZWebhookCreated },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await createWebhook(ctx, {
          userId: callerOf(request).id,
          workspaceId: request.params.id,
          input: request.body,
        }),
      ),
  );

  app.get(
    '/workspaces/:id/webhooks/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The webhooks of a workspace (never their secrets)',
        description: who,
        security: bearer,
        params: ZIdParams,
        response: { 200: z.array(ZWebhook) },
      },
    },
    async (request) => listWebhooks(db, { userId: callerOf(request).id, workspaceId: request.params.id }),
  );

  app.get(
    '/webhooks/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'One webhook',
        description: who,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZWebhook },
      },
    },
    async (request) => getWebhook(db, { userId: callerOf(request).id, webhookId: request.params.id }),
  );

  app.patch(
    '/webhooks/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Change the URL, the events, or turn it on or off',
        description: `${who} Turning a webhook that the server turned off on again clears its failure streak.`,
        security: bearer,
        params: ZIdParams,
        body: ZWebhookPatch,
        response: { 200: ZWebhook },
      },
    },
    async (request) =>
      updateWebhook(ctx, { userId: callerOf(request).id, webhookId: request.params.id, patch: request.body }),
  );

  app.delete(
    '/webhooks/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete a webhook and its delivery log',
        description: who,
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null().describe('Deleted') },
      },
    },
    async (request, reply) => {
      await deleteWebhook(db, { userId: callerOf(request).id, webhookId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/webhooks/:id/deliveries/',
    {
      ...signedIn,
      schema: {
        tags,
        summary:
          'The delivery log, newest first: status, tries, response code, duration, request and response excerpts',
        description: `${who} Pages: pass the last id you saw as \`before\`. Deliveries are kept 30 days.`,
        security: bearer,
        params: ZIdParams,
        querystring: z.object({
          before: ZId.optional(),
          limit: zWholeNumber({ min: 1, max: 100 }).default(30),
        }),
        response: { 200: z.array(ZWebhookDelivery) },
      },
    },
    async (request) =>
      listDeliveries(db, {
        userId: callerOf(request).id,
        webhookId: request.params.id,
        before: request.query.before,
        limit: request.query.limit,
      }),
  );

  app.post(
    '/webhooks/:id/deliveries/:delivery/redeliver/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Send a delivery again, as a new delivery with the same event and data',
        description: who,
        security: bearer,
        params: z.object({ id: ZId, delivery: zWholeNumber({ min: 1, max: Number.MAX_SAFE_INTEGER }) }),
        response: { 201: ZWebhookDelivery },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await redeliver(db, {
          userId: callerOf(request).id,
          webhookId: request.params.id,
          deliveryId: request.params.delivery,
        }),
      ),
  );

  app.post(
    '/webhooks/:id/ping/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Send a `ping` delivery now, to check the receiver',
        description: who,
        security: bearer,
        params: ZIdParams,
        response: { 201: ZWebhookDelivery },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await ping(db, { userId: callerOf(request).id, webhookId: request.params.id })),
  );

  app.post(
    '/webhooks/:id/rotate-secret/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A new signing secret, in this answer only; the previous one still signs for a while',
        description:
          `${who} For ${Limits.webhooks.rotationOverlapHours} hours (\`previous_secret_until\`) each delivery's ` +
          '`webhook-signature` carries two signatures, by the new secret and by the previous one, so the ' +
          'receiver can switch to the new secret without rejecting a delivery.',
        security: bearer,
        params: ZIdParams,
        response: { 200: ZWebhookCreated },
      },
    },
    async (request) => rotateSecret(db, { userId: callerOf(request).id, webhookId: request.params.id }),
  );

  app.post(
    '/webhooks/:id/resume/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Resume a webhook paused after failed tries in a row: its held deliveries go out now',
        description: who,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZWebhook },
      },
    },
    async (request) => resumeWebhook(db, { userId: callerOf(request).id, webhookId: request.params.id }),
  );
};
