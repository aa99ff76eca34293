import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { Limits } from '@stageline/shared';
import { schema } from '../../db';
import { AppError } from '../../http/errors';
import type { CodeMailPurpose } from '../mail';
import { mailUser, type AuthContext, type UserRow } from './context';
import { hashSecret, sameHash } from './tokens';

/**
 * What a code is for. `account` is a code asked for while signed in without a purpose: any
 * signed-in confirmation (password, e-mail, 2FA) accepts it.
 */
export type CodePurpose = CodeMailPurpose;

type SendOptions = {
  user: UserRow;
  purpose: CodePurpose;
  /** When a code was sent less than `otp_timeout` ago: throw 429 (default) or keep the one sent. */
  whenTooSoon?: 'throw' | 'skip';
};

function generateCode(): string {
  return String(randomInt(0, 10 ** Limits.code.length)).padStart(Limits.code.length, '0');
}

function tooManyAttempts(seconds: number): AppError {
  return new AppError('rate_limited', undefined, { seconds }, { 'retry-after': String(seconds) });
}

/**
 * E-mails a new 6-digit code (docs/rules.md §Accounts) and retires the previous one of the same purpose. A new
 * code may be sent `otp_timeout` (30 s) after the last unless the last was spent already (decision 194);
 * earlier is a 429 with Retry-After.
 * Returns whether a code was sent.
 */
export async function sendCode(
  ctx: AuthContext,
  { user, purpose, whenTooSoon = 'throw' }: SendOptions,
): Promise<boolean> {
  const now = new Date();
  const [last] = await ctx.db
    .select({ sentAt: schema.oneTimeCodes.sentAt, consumedAt: schema.oneTimeCodes.consumedAt })
    .from(schema.oneTimeCodes)
    .where(and(eq(schema.oneTimeCodes.userId, user.id), eq(schema.oneTimeCodes.purpose, purpose)))
    .orderBy(desc(schema.oneTimeCodes.sentAt))
    .limit(1);
  // The wait protects a code still waiting in the inbox from being replaced (and the inbox from a
  // flood). A spent code waits for nothing: the second sign-in within 30 s gets its own code
  // (decision 194). Only the newest code is ever spent; a newer one retires the older ones.
  if (last && last.consumedAt === null) {
    const waitMs = last.sentAt.getTime() + Limits.otpTimeoutSeconds * 1000 - now.getTime();
    if (waitMs > 0) {
      if (whenTooSoon === 'skip') return false;
      throw tooManyAttempts(Math.ceil(waitMs / 1000));
    }
  }
  const code = generateCode();
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(schema.oneTimeCodes)
      .set({ consumedAt: now })
      .where(
        and(
          eq(schema.oneTimeCodes.userId, user.id),
          eq(schema.oneTimeCodes.purpose, purpose),
          isNull(schema.oneTimeCodes.consumedAt),
        ),
      );
    await tx.insert(schema.oneTimeCodes).values({
      userId: user.id,
      purpose,
      codeHash: hashSecret(ctx.keys, code),
      sentAt: now,
      expiresAt: new Date(now.getTime() + Limits.code.ttlMinutes * 60_000),
    });
  });
  await mailUser(ctx, user, { kind: 'code', purpose, code });
  return true;
}

/**
 * Spends a code: the newest live code of one of `purposes` must match. Each try counts; after five
 * wrong ones the code is burnt, and an expired or burnt code is refused like a wrong one
 * ('Code is invalid, try to resend'). The try is counted before the comparison, in one statement
 * that locks the code's row, so a burst of parallel guesses gets five comparisons, not one each
 * (docs/security.md).
 */
export async function consumeCode(
  ctx: AuthContext,
  { userId, purposes, code }: { userId: number; purposes: CodePurpose[]; code: string },
): Promise<void> {
  const { oneTimeCodes } = schema;
  const now = new Date();
  const newestLive = ctx.db
    .select({ id: oneTimeCodes.id })
    .from(oneTimeCodes)
    .where(
      and(
        eq(oneTimeCodes.userId, userId),
        inArray(oneTimeCodes.purpose, purposes),
        isNull(oneTimeCodes.consumedAt),
        gt(oneTimeCodes.expiresAt, now),
        lt(oneTimeCodes.attempts, Limits.code.maxAttempts),
      ),
    )
    .orderBy(desc(oneTimeCodes.sentAt))
    .limit(1)
    .for('update');
  const [tried] = await ctx.db
    .update(oneTimeCodes)
    .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
    .where(
      and(
        inArray(oneTimeCodes.id, newestLive),
        // Checked again on the locked row: a try counted meanwhile may have reached the limit.
        lt(oneTimeCodes.attempts, Limits.code.maxAttempts),
        isNull(oneTimeCodes.consumedAt),
      ),
    )
    .returning({ id: oneTimeCodes.id, codeHash: oneTimeCodes.codeHash });
  if (!tried || !sameHash(tried.codeHash, hashSecret(ctx.keys, code))) throw new AppError('invalid_code');
  // Only one request can spend it, even when two race with the right code.
  const spent = await ctx.db
    .update(oneTimeCodes)
    .set({ consumedAt: now })
    .where(and(eq(oneTimeCodes.id, tried.id), isNull(oneTimeCodes.consumedAt)))
    .returning({ id: oneTimeCodes.id });
  if (spent.length === 0) throw new AppError('invalid_code');
}
