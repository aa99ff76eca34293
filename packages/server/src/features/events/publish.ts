import { lt, sql } from 'drizzle-orm';
import type { TLiveEvent } from '@stageline/shared';
import { NotifyChannel, rowsOf, schema, type Db } from '../../db';

/** The NOTIFY channel every server process LISTENs on; an event's payload is its row's id. */
export const EventsChannel = NotifyChannel;

/** How long event rows are kept for `Last-Event-ID` resumes (docs/live-updates.md). */
export const EventRetentionMs = 24 * 60 * 60 * 1000;

/** The events a change can publish (`reset` is made by the stream itself, never stored). */
export type TStoredEvent = Exclude<TLiveEvent, { type: 'reset' }>;

/** Who receives an event: one user, or every member of one workspace at the moment it is sent. */
export type Audience = { user: number } | { workspace: number };

/** An event with its audience. */
export type PublishedEvent = { audience: Audience; event: TStoredEvent };

/**
 * Writes a live event in the caller's transaction and NOTIFYs every server process; PostgreSQL
 * delivers the NOTIFY only if the transaction commits, so a rolled-back change is never streamed.
 */
export async function publish(tx: Db, audience: Audience, event: TStoredEvent): Promise<number> {
  const user = 'user' in audience ? audience.user : null;
  const workspace = 'workspace' in audience ? audience.workspace : null;
  // The row and its NOTIFY in one statement.
  const [row] = await rowsOf<{ id: string | number }>(
    tx,
    sql`with inserted as (
        insert into events (user_id, workspace_id, type, payload)
        values (${user}::integer, ${workspace}::integer, ${event.type}, ${JSON.stringify(event.data)}::jsonb)
        returning id)
      select id, pg_notify(${EventsChannel}, id::text) from inserted`,
  );
  return Number(row!.id);
}

/**
 * Deletes event rows older than `olderThan` (the jobs run it with now − 24 h). A client resuming
 * from a deleted id gets a `reset` event. Returns how many rows went.
 */
export async function pruneEvents(db: Db, olderThan: Date): Promise<number> {
  const deleted = await db
    .delete(schema.events)
    .where(lt(schema.events.createdAt, olderThan))
    .returning({ id: schema.events.id });
  return deleted.length;
}
