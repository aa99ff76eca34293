import { sql } from 'drizzle-orm';
import { WebhookBatchEvent, type TWebhookEvent } from '@stageline/shared';
import type { Db } from '../../db';
import { EventsChannel, type PublishedEvent } from './publish';

/**
 * The webhook outbox (docs/integrations.md): deliveries are written beside the live events, in the
 * transaction of the change, and the webhooks feature's dispatchers send them once it commits.
 * The NOTIFY channel the dispatchers LISTEN on: a transaction that queued deliveries committed.
 */
export const WebhooksChannel = 'stageline_webhooks';

export type WebhookEventInput = { event: TWebhookEvent; data: Record<string, unknown> };

/** Queues webhook deliveries (the CTE `queued`) and names the NOTIFY of the outbox. */
const queuedDeliveries = (workspaceId: number, events: WebhookEventInput[]) => sql`
    queued as (
      insert into webhook_deliveries (webhook_id, event, data)
      select w.id, e.value->>'event', e.value->'data'
      from jsonb_array_elements(${JSON.stringify(events)}::jsonb) with ordinality as e(value, ord)
      join webhooks w
        on w.workspace_id = ${workspaceId} and w.active and (e.value->>'event') = any(w.events)
      order by e.ord, w.id
      returning 1
    )`;

/**
 * Queues `events` of a workspace for its active webhooks that subscribe to them, in the caller's
 * transaction (the outbox: rolled back with the change, sent only once it commits), in ONE
 * statement whatever the number of events and webhooks; with none subscribed it writes nothing.
 * The NOTIFY wakes every process's dispatcher at commit.
 */
export async function emitWebhookEvents(tx: Db, workspaceId: number, events: WebhookEventInput[]): Promise<void> {
  if (events.length === 0) return;
  await tx.execute(sql`
    with ${queuedDeliveries(workspaceId, events)}
    select pg_notify(${WebhooksChannel}, '') from (select 1 from queued limit 1) as any_queued`);
}

/**
 * A change's live events (`publish`) and its webhook deliveries (`emitWebhookEvents`) in ONE
 * statement (docs/architecture.md, "Statements"), each NOTIFYing its channel.
 */
export async function publishWithWebhooks(
  tx: Db,
  { workspaceId, live, webhooks }: { workspaceId: number; live: PublishedEvent[]; webhooks: WebhookEventInput[] },
): Promise<void> {
  if (live.length === 0 && webhooks.length === 0) return;
  const rows = live.map(({ audience, event }) => ({
    user: 'user' in audience ? audience.user : null,
    workspace: 'workspace' in audience ? audience.workspace : null,
    type: event.type,
    data: event.data,
  }));
  await tx.execute(sql`
    with ${queuedDeliveries(workspaceId, webhooks)},
    inserted as (
      insert into events (user_id, workspace_id, type, payload)
      select (e.value->>'user')::integer, (e.value->>'workspace')::integer, e.value->>'type', e.value->'data'
      from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) with ordinality as e(value, ord)
      order by e.ord
      returning id)
    select pg_notify(${EventsChannel}, id::text) from inserted
    union all select pg_notify(${WebhooksChannel}, '') from (select 1 from queued limit 1) as any_queued`);
}

/**
 * `task.created` for every task of the units just made (batch creation makes them in one statement,
 * so their ids come from the database here), in ONE statement; nothing when no webhook subscribes.
 */
export async function emitTasksCreated(tx: Db, workspaceId: number, unitIds: number[]): Promise<void> {
  if (unitIds.length === 0) return;
  await tx.execute(sql`
    with queued as (
      insert into webhook_deliveries (webhook_id, event, data)
      select w.id, 'task.created', jsonb_build_object('task', jsonb_build_object(
        'id', t.id, 'unit', t.unit_id, 'stage', t.stage_id, 'pipeline', u.pipeline_id, 'status', t.status))
      from tasks t
      join units u on u.id = t.unit_id
      join webhooks w on w.workspace_id = ${workspaceId} and w.active and 'task.created' = any(w.events)
      where t.unit_id in (select value::int from jsonb_array_elements_text(${JSON.stringify(unitIds)}::jsonb))
      order by t.id, w.id
      returning 1
    )
    select pg_notify(${WebhooksChannel}, '') from (select 1 from queued limit 1) as any_queued`);
}

/**
 * ONE `unit.batch_created` delivery per webhook subscribed to `unit.created` or `task.created`, in
 * place of one per unit and task (docs/integrations.md): a batch of 2,000 units and 10 webhooks made
 * 80,000 deliveries before. `units` are the new units' ids; their tasks are `GET units/`'s.
 */
export async function emitUnitsBatchCreated(
  tx: Db,
  workspaceId: number,
  data: { project: number; pipeline: number; units: number[] },
): Promise<void> {
  if (data.units.length === 0) return;
  const payload = { project: data.project, pipeline: data.pipeline, count: data.units.length, units: data.units };
  await tx.execute(sql`
    with queued as (
      insert into webhook_deliveries (webhook_id, event, data)
      select w.id, ${WebhookBatchEvent}, ${JSON.stringify(payload)}::jsonb
      from webhooks w
      where w.workspace_id = ${workspaceId} and w.active and w.events && array['unit.created', 'task.created']
      order by w.id
      returning 1
    )
    select pg_notify(${WebhooksChannel}, '') from (select 1 from queued limit 1) as any_queued`);
}
