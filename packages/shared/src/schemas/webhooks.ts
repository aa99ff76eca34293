import { z } from 'zod';

/**
 * Webhooks of a workspace (docs/integrations.md): after a change commits, each active webhook
 * subscribed to its event gets a signed `POST`, retried with backoff until it answers 2xx.
 */

export const WebhookEvents = [
  'task.created',
  'task.status_changed',
  'task.review',
  'task.updated',
  'unit.created',
  'unit.deleted',
  'comment.created',
  'pipeline.updated',
  'member.joined',
  'member.removed',
  'time.logged',
  'time.updated',
  'time.deleted',
] as const;
export const ZWebhookEvent = z.enum(WebhookEvents);
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;

/** Tries of one delivery before it is given up (about a day of backoff). */
export const WebhookMaxAttempts = 8;

/**
 * What a batch of units (POST units/batch/, a CSV import) sends instead of a `unit.created` and a
 * `task.created` per unit and task: ONE delivery to each webhook subscribed to either of those.
 */
export const WebhookBatchEvent = 'unit.batch_created';

const ZWebhookUrl = z
  .string()
  .trim()
  .max(2000)
  .url({ protocol: /^https?$/, error: 'Enter an http:// or https:// address.' });

export const ZWebhookCreate = z.object({
  url: ZWebhookUrl,
  events: z.array(ZWebhookEvent).min(1).max(WebhookEvents.length),
  active: z.boolean().optional(),
});
export type TWebhookCreate = z.infer<typeof ZWebhookCreate>;

export const ZWebhookPatch = ZWebhookCreate.partial();
export type TWebhookPatch = z.infer<typeof ZWebhookPatch>;

export const ZWebhook = z.object({
  id: z.number().int(),
  workspace: z.number().int(),
  url: z.string(),
  events: z.array(ZWebhookEvent),
  active: z.boolean(),
  created_at: z.string(),
  /** Since when every delivery failed (null while the last one succeeded). */
  failing_since: z.string().nullable(),
  /** Why it was turned off by the server (a day of failures), or null. */
  disabled_reason: z.string().nullable(),
  /** Since when it is paused after failed tries in a row (nothing is sent until resumed), or null. */
  paused_at: z.string().nullable(),
  /** Until when the previous signing secret still signs too (a rotation's overlap), or null. */
  previous_secret_until: z.string().nullable(),
});
export type TWebhook = z.infer<typeof ZWebhook>;

/** The answer of POST workspaces/{id}/webhooks/: with the signing secret, shown this once. */
export const ZWebhookCreated = ZWebhook.extend({
  secret: z
    .string()
    .describe('Signs every delivery (Standard Webhooks: `whsec_` + base64 of the HMAC-SHA256 key). Shown once.'),
});
export type TWebhookCreated = z.infer<typeof ZWebhookCreated>;

export const WebhookDeliveryStatuses = ['pending', 'succeeded', 'failed'] as const;

export const ZWebhookDelivery = z.object({
  id: z.number().int(),
  event: z.string(),
  status: z.enum(WebhookDeliveryStatuses),
  attempts: z.number().int(),
  response_status: z.number().int().nullable(),
  duration_ms: z.number().int().nullable(),
  error: z.string().nullable(),
  request_excerpt: z.string(),
  response_excerpt: z.string().nullable(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  redelivery_of: z.number().int().nullable(),
});
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;
