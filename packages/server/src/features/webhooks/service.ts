import { randomBytes } from 'node:crypto';
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import {
  Limits,
  WebhookDeliveryStatuses,
  WebhookEvents,
  type TWebhook,
  type TWebhookCreate,
  type TWebhookCreated,
  type TWebhookDelivery,
  type TWebhookEvent,
  type TWebhookPatch,
} from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { recordAudit } from '../audit';
import { authorizeIn } from '../workspaces';
import { deliveryBody } from './dispatcher';
import { WebhooksChannel } from '../events';
import { targetProblem } from './target';

const { webhooks, webhookDeliveries } = schema;
type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Deliveries are kept this long in the log, then pruned. */
export const DeliveryRetentionDays = 30;

const asEvent = (value: string): TWebhookEvent | undefined => WebhookEvents.find((event) => event === value);

function presentWebhook(row: WebhookRow): TWebhook {
  return {
    id: row.id,
    workspace: row.workspaceId,
    url: row.url,
    events: row.events.map(asEvent).filter((event): event is TWebhookEvent => event !== undefined),
    active: row.active,
    created_at: row.createdAt.toISOString(),
    failing_since: row.failingSince?.toISOString() ?? null,
    disabled_reason: row.disabledReason,
    paused_at: row.pausedAt?.toISOString() ?? null,
    previous_secret_until:
      row.previousSecret && row.previousSecretUntil && row.previousSecretUntil.getTime() > Date.now()
        ? row.previousSecretUntil.toISOString()
        : null,
  };
}

/** A new signing secret: `whsec_` + base64 of 32 random bytes, as Standard Webhooks has it. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function presentDelivery(row: DeliveryRow, workspaceId: number): TWebhookDelivery {
  const status = WebhookDeliveryStatuses.find((s) => s === row.status) ?? 'pending';
  return {
    id: row.id,
    event: row.event,
    status,
    attempts: row.attempts,
    response_status: row.responseStatus,
    duration_ms: row.durationMs,
    error: row.error,
    request_excerpt: deliveryBody({ ...row, created_at: row.createdAt, workspace_id: workspaceId }).slice(0, 2048),
    response_excerpt: row.responseExcerpt,
    created_at: row.createdAt.toISOString(),
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    next_attempt_at: row.status === 'pending' ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    redelivery_of: row.redeliveryOf,
  };
}

/** A URL webhooks may call, or a field error (docs/integrations.md, "SSRF"). */
async function checkUrl(url: string, allowPrivate: boolean): Promise<void> {
  const problem = await targetProblem(url, allowPrivate);
  if (problem) throw new FieldError({ url: [problem] });
}

/** A webhook and, checked on it, the caller's right over its workspace; 404 when not visible. */
async function webhookFor(db: Db, { userId, webhookId }: { userId: number; webhookId: number }) {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, webhookId));
  if (!row) throw new AppError('not_found');
  await authorizeIn(db, { userId, workspaceId: row.workspaceId, resource: 'webhook', action: 'manage' });
  return row;
}

type Ctx = { db: Db; allowPrivate: boolean };

/**
 * POST workspaces/{id}/webhooks/ (Admin+): the secret is in this answer only. A workspace has at
 * most `Limits.webhooks.perWorkspace` (counted under a lock of the workspace's row, so two at once
 * cannot pass it together).
 */
export async function createWebhook(
  { db, allowPrivate }: Ctx,
  { userId, workspaceId, input }: { userId: number; workspaceId: number; input: TWebhookCreate },
): Promise<TWebhookCreated> {
  await authorizeIn(db, { userId, workspaceId, resource: 'webhook', action: 'manage' });
  await checkUrl(input.url, allowPrivate);
  const secret = newSecret();
  const row = await db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from workspaces where id = ${workspaceId} for update`);
    const [{ count } = { count: 0 }] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(webhooks)
      .where(eq(webhooks.workspaceId, workspaceId));
    const max = Limits.webhooks.perWorkspace;
    if (count >= max) throw new AppError('bad_request', 'A workspace may have at most {{max}} webhooks.', { max });
    const [inserted] = await tx
      .insert(webhooks)
      .values({
        workspaceId,
        url: input.url,
        events: [...new Set(input.events)],
        active: input.active ?? true,
        secret,
        createdBy: userId,
      })
      .returning();
    await recordAudit(tx, workspaceId, {
      action: 'webhook.created',
      actorId: userId,
      target: { kind: 'webhook', id: inserted!.id, name: inserted!.url },
      details: { events: inserted!.events, active: inserted!.active },
    });
    return inserted!;
  });
  return { ...presentWebhook(row), secret };
}

/**
 * POST webhooks/{id}/rotate-secret/: a new signing secret, in this answer only. For
 * `Limits.webhooks.rotationOverlapHours` deliveries carry the signatures of both the new and the
 * previous secret, so the receiver can switch without losing one (docs/integrations.md).
 */
export async function rotateSecret(db: Db, options: { userId: number; webhookId: number }): Promise<TWebhookCreated> {
  const current = await webhookFor(db, options);
  const secret = newSecret();
  const row = await db.transaction(async (tx) => {
    const [rotated] = await tx
      .update(webhooks)
      .set({
        secret,
        previousSecret: current.secret,
        previousSecretUntil: sql`now() + make_interval(hours => ${Limits.webhooks.rotationOverlapHours})`,
      })
      .where(eq(webhooks.id, options.webhookId))
      .returning();
    await recordAudit(tx, current.workspaceId, {
      action: 'webhook.changed',
      actorId: options.userId,
      target: { kind: 'webhook', id: current.id, name: current.url },
      details: { secret: 'rotated' },
    });
    return rotated!;
  });
  return { ...presentWebhook(row), secret };
}

/**
 * POST webhooks/{id}/resume/: a webhook paused after failed tries sends again, its held deliveries
 * first (due now), with a fresh count of failures.
 */
export async function resumeWebhook(db: Db, options: { userId: number; webhookId: number }): Promise<TWebhook> {
  await webhookFor(db, options);
  const row = await db.transaction(async (tx) => {
    const [resumed] = await tx
      .update(webhooks)
      .set({ pausedAt: null, failures: 0 })
      .where(eq(webhooks.id, options.webhookId))
      .returning();
    await tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`least(${webhookDeliveries.nextAttemptAt}, now())` })
      .where(and(eq(webhookDeliveries.webhookId, options.webhookId), eq(webhookDeliveries.status, 'pending')));
    await tx.execute(sql`select pg_notify(${WebhooksChannel}, '')`);
    return resumed!;
  });
  return presentWebhook(row);
}

/** GET workspaces/{id}/webhooks/ (Admin+). */
export async function listWebhooks(db: Db, { userId, workspaceId }: { userId: number; workspaceId: number }) {
  await authorizeIn(db, { userId, workspaceId, resource: 'webhook', action: 'view' });
  const rows = await db.select().from(webhooks).where(eq(webhooks.workspaceId, workspaceId)).orderBy(webhooks.id);
  return rows.map(presentWebhook);
}

export async function getWebhook(db: Db, options: { userId: number; webhookId: number }): Promise<TWebhook> {
  return presentWebhook(await webhookFor(db, options));
}

/** PATCH webhooks/{id}/: turning it on again clears the failure streak and the reason it went off. */
export async function updateWebhook(
  { db, allowPrivate }: Ctx,
  { userId, webhookId, patch }: { userId: number; webhookId: number; patch: TWebhookPatch },
): Promise<TWebhook> {
  const current = await webhookFor(db, { userId, webhookId });
  if (patch.url !== undefined) await checkUrl(patch.url, allowPrivate);
  const reactivated = patch.active === true && !current.active;
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhooks)
      .set({
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
        ...(patch.active !== undefined ? { active: patch.active } : {}),
        ...(reactivated ? { failingSince: null, disabledReason: null, failures: 0, pausedAt: null } : {}),
      })
      .where(eq(webhooks.id, webhookId))
      .returning();
    const changes: Record<string, unknown> = {};
    if (patch.url !== undefined && patch.url !== current.url) changes.url = { from: current.url, to: patch.url };
    if (patch.events !== undefined) changes.events = { from: current.events, to: updated!.events };
    if (patch.active !== undefined && patch.active !== current.active) {
      changes.active = { from: current.active, to: patch.active };
    }
    await recordAudit(tx, current.workspaceId, {
      action: 'webhook.changed',
      actorId: userId,
      target: { kind: 'webhook', id: current.id, name: updated!.url },
      details: changes,
    });
    return updated!;
  });
  return presentWebhook(row);
}

export async function deleteWebhook(db: Db, options: { userId: number; webhookId: number }): Promise<void> {
  const current = await webhookFor(db, options);
  await db.transaction(async (tx) => {
    await tx.delete(webhooks).where(eq(webhooks.id, options.webhookId));
    await recordAudit(tx, current.workspaceId, {
      action: 'webhook.deleted',
      actorId: options.userId,
      target: { kind: 'webhook', id: current.id, name: current.url },
    });
  });
}

/** GET webhooks/{id}/deliveries/: newest first, a page at a time (`before`: the last id seen). */
export async function listDeliveries(
  db: Db,
  { userId, webhookId, before, limit }: { userId: number; webhookId: number; before?: number; limit: number },
): Promise<TWebhookDelivery[]> {
  const hook = await webhookFor(db, { userId, webhookId });
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.webhookId, webhookId),
        before === undefined ? undefined : lt(webhookDeliveries.id, before),
      ),
    )
    .orderBy(desc(webhookDeliveries.id))
    .limit(limit);
  return rows.map((row) => presentDelivery(row, hook.workspaceId));
}

/** Queues one delivery outside a change (ping, redelivery) and wakes the dispatchers. */
async function queueOne(
  db: Db,
  hook: WebhookRow,
  values: { event: string; data: unknown; redeliveryOf?: number },
): Promise<TWebhookDelivery> {
  const row = await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(webhookDeliveries)
      .values({ webhookId: hook.id, event: values.event, data: values.data, redeliveryOf: values.redeliveryOf ?? null })
      .returning();
    await tx.execute(sql`select pg_notify(${WebhooksChannel}, '')`);
    return inserted!;
  });
  return presentDelivery(row, hook.workspaceId);
}

/** POST webhooks/{id}/deliveries/{delivery}/redeliver/: the same event and data, as a new delivery. */
export async function redeliver(
  db: Db,
  { userId, webhookId, deliveryId }: { userId: number; webhookId: number; deliveryId: number },
): Promise<TWebhookDelivery> {
  const hook = await webhookFor(db, { userId, webhookId });
  const [original] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.webhookId, webhookId)));
  if (!original) throw new AppError('not_found');
  if (!hook.active) throw new AppError('bad_request', 'Turn the webhook on to send to it.');
  return queueOne(db, hook, { event: original.event, data: original.data, redeliveryOf: original.id });
}

/** POST webhooks/{id}/ping/: a `ping` delivery, to check the receiver and its signature check. */
export async function ping(db: Db, { userId, webhookId }: { userId: number; webhookId: number }) {
  const hook = await webhookFor(db, { userId, webhookId });
  if (!hook.active) throw new AppError('bad_request', 'Turn the webhook on to send to it.');
  return queueOne(db, hook, { event: 'ping', data: { webhook: hook.id, events: hook.events } });
}

/** Deletes deliveries older than their retention; answers how many. */
export async function pruneDeliveries(db: Db): Promise<number> {
  const deleted = await db
    .delete(webhookDeliveries)
    .where(lt(webhookDeliveries.createdAt, sql`now() - make_interval(days => ${DeliveryRetentionDays})`))
    .returning({ id: webhookDeliveries.id });
  return deleted.length;
}
