import { sql } from 'drizzle-orm';
import type { TWebhookEvent } from '@stageline/shared';
import type { Db } from '../../db';

/**
 * The webhook outbox (docs/integrations.md): deliveries are written beside the live events, in the
 * transaction of the change, and the webhooks feature's dispatchers send them once it commits.
 * The NOTIFY channel the dispatchers LISTEN on: a transaction that queued deliveries committed.
 */
export const WebhooksChannel = 'stageline_webhooks';

export type WebhookEventInput = { event: TWebhookEvent; data: Record<string, unknown> };

/**
 * Queues `events` of a workspace for its active webhooks that subscribe to them, in the caller's
 * transaction (the outbox: rolled back with the change, sent only once it commits), in ONE
 * statement whatever the number of events and webhooks; with none subscribed it writes nothing.
 * The NOTIFY wakes every process's dispatcher at commit.
 */
export async function emitWebhookEvents(tx: Db, workspaceId: number, events: WebhookEventInput[]): Promise<void> {
  if (events.length === 0) return;
  await tx.execute(sql`
    with queued as (
      insert into webhook_deliveries (webhook_id, event, data)
      select w.id, e.value->>'event', e.value->'data'
      from jsonb_array_elements(${JSON.stringify(events)}::jsonb) with ordinality as e(value, ord)
      join webhooks w
        on w.workspace_id = ${workspaceId} and w.active and (e.value->>'event') = any(w.events)
      order by e.ord, w.id
      returning 1
    )
    select pg_notify(${WebhooksChannel}, '') from (select 1 from queued limit 1) as any_queued`);
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
