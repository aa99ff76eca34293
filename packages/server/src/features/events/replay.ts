import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { schema, type Db } from '../../db';
import type { EventRow } from './hub';

const { events, memberships } = schema;

/** At most this many events are replayed on a resume; a longer backlog answers `reset`. */
export const MaxReplay = 1000;

/**
 * What a client resuming after `lastId` missed: the user's rows with a greater id, oldest first, the
 * workspace rows only of workspaces the user is in now. `reset` when the rows after `lastId` may
 * have been pruned (it is older than the oldest kept row) or there are more than `MaxReplay`.
 */
export async function replayFor(
  db: Db,
  { userId, lastId, newest }: { userId: number; lastId: number; newest: number },
): Promise<{ reset: true } | { reset: false; rows: EventRow[] }> {
  const [oldest] = await db.select({ id: sql<string | null>`min(${events.id})` }).from(events);
  const horizon = oldest?.id != null ? Number(oldest.id) : newest + 1;
  if (lastId + 1 < horizon) return { reset: true };
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        gt(events.id, lastId),
        or(
          eq(events.userId, userId),
          and(
            isNull(events.userId),
            inArray(
              events.workspaceId,
              db.select({ id: memberships.workspaceId }).from(memberships).where(eq(memberships.userId, userId)),
            ),
          ),
        ),
      ),
    )
    .orderBy(asc(events.id))
    .limit(MaxReplay + 1);
  if (rows.length > MaxReplay) return { reset: true };
  return { reset: false, rows };
}
