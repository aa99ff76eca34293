import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import { rowsOf, schema, type Db } from '../db';
import { AppError } from './errors';

/** At most `max` hits per `windowSeconds`. */
export type RateRule = { max: number; windowSeconds: number };

/** A counter after a hit: how many hits its window holds and the seconds until it resets. */
export type Count = { hits: number; retryAfter: number };

const { rateLimits } = schema;

/** A short stable key for a value that may be long or personal (an e-mail, a token). */
export function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 22);
}

export function rateLimited(seconds: number): AppError {
  return new AppError('rate_limited', undefined, { seconds }, { 'retry-after': String(seconds) });
}

/**
 * Counts one hit on `key` in a fixed window of `rule.windowSeconds`, in the database, so every
 * process behind a load balancer shares the count (docs/security.md). One atomic upsert: two
 * processes counting at once each see their own hit.
 */
export async function countHit(db: Db, key: string, rule: RateRule): Promise<Count> {
  const [row] = await rowsOf<{ hits: number; retry_after: number }>(
    db,
    sql`
    insert into ${rateLimits} (key, hits, reset_at)
    values (${key}, 1, now() + make_interval(secs => ${rule.windowSeconds}))
    on conflict (key) do update set
      hits = case when ${rateLimits.resetAt} <= now() then 1 else ${rateLimits.hits} + 1 end,
      reset_at = case when ${rateLimits.resetAt} <= now() then excluded.reset_at else ${rateLimits.resetAt} end
    returning hits, ceil(extract(epoch from (reset_at - clock_timestamp())))::int as retry_after`,
  );
  return { hits: Number(row!.hits), retryAfter: Math.max(1, Number(row!.retry_after)) };
}

/** The hits `key` holds in its current window, without counting one (0 once the window passed). */
export async function peekCount(db: Db, key: string): Promise<Count> {
  const [row] = await db
    .select({ hits: rateLimits.hits, resetAt: rateLimits.resetAt })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), gt(rateLimits.resetAt, sql`now()`)));
  if (!row) return { hits: 0, retryAfter: 0 };
  return { hits: row.hits, retryAfter: Math.max(1, Math.ceil((row.resetAt.getTime() - Date.now()) / 1000)) };
}

/** Forgets a counter (a success clears the failures counted against an account). */
export async function clearCount(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Deletes the counters whose window has passed; answers how many. */
export async function pruneRateLimits(db: Db): Promise<number> {
  const deleted = await db
    .delete(rateLimits)
    .where(lte(rateLimits.resetAt, sql`now()`))
    .returning({ key: rateLimits.key });
  return deleted.length;
}

/**
 * A preHandler applying several counters in order (per address, per account…): the first one over
 * its rule answers 429 with Retry-After and the translated message. A key of `undefined` skips
 * that counter for the request.
 */
export function rateLimit(
  db: Db,
  name: string,
  rules: { rule: RateRule; key: (request: FastifyRequest) => string | undefined }[],
) {
  return async (request: FastifyRequest) => {
    for (const [index, { rule, key }] of rules.entries()) {
      const value = key(request);
      if (value === undefined) continue;
      const count = await countHit(db, `${name}:${index}:${value}`, rule);
      if (count.hits > rule.max) throw rateLimited(count.retryAfter);
    }
  };
}
