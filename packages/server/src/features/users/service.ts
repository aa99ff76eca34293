import { and, eq, isNull } from 'drizzle-orm';
import type { TMe, TUserPatch } from '@stageline/shared';
import { schema } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { recordAccountAudit } from '../audit';
import {
  assertAvailable,
  consumeCode,
  endPasswordChange,
  findUserById,
  hashPassword,
  hashSecret,
  isUniqueViolation,
  mailUser,
  randomToken,
  revokeUserSessions,
  type AuthContext,
  type AuthUser,
  type UserRow,
} from '../auth';
import { membershipOf, workspaceIdsOf } from '../workspaces';
import { presentMe } from './presenter';

/** E-mail change links live a day: the new mailbox may be one the user reads later. */
export const emailChangeHours = 24;

async function loadUser(ctx: AuthContext, userId: number): Promise<UserRow> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_authenticated');
  return user;
}

/** GET users/me/: the account with its linked sign-in providers. */
export async function getMe(ctx: AuthContext, userId: number): Promise<TMe> {
  const user = await loadUser(ctx, userId);
  const accounts = await ctx.db
    .select({ provider: schema.oauthAccounts.provider, email: schema.oauthAccounts.email })
    .from(schema.oauthAccounts)
    .where(eq(schema.oauthAccounts.userId, userId));
  return presentMe(user, accounts, await workspaceIdsOf(ctx.db, userId));
}

/** PATCH users/{id}/: a user edits only their own profile; anyone else's id answers 404. */
export async function updateProfile(
  ctx: AuthContext,
  { actor, userId, patch }: { actor: AuthUser; userId: number; patch: TUserPatch },
): Promise<TMe> {
  if (actor.id !== userId) throw new AppError('not_found');
  if (patch.username !== undefined) await assertAvailable(ctx.db, { username: patch.username, exceptUserId: actor.id });
  if (typeof patch.recent_workspace === 'number') {
    const member = await membershipOf(ctx.db, { userId: actor.id, workspaceId: patch.recent_workspace });
    if (!member) throw new FieldError({ recent_workspace: ['You are not a member of this workspace.'] });
  }
  if (patch.onboarding !== undefined && patch.onboarding !== 'done') {
    // Finished is final: the quickstart is never offered again (docs/rules.md §Web).
    const current = await loadUser(ctx, actor.id);
    if (current.onboarding === 'done') throw new FieldError({ onboarding: ['The quickstart is already finished.'] });
  }
  const changes: Partial<typeof schema.users.$inferInsert> = {
    username: patch.username,
    firstName: patch.first_name,
    lastName: patch.last_name,
    language: patch.language,
    recentWorkspaceId: patch.recent_workspace,
    notifyBrowser: patch.notify_browser,
    emailFrequency: patch.email_frequency,
    onboarding: patch.onboarding,
    timeZone: patch.time_zone,
  };
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  if (Object.keys(defined).length > 0) {
    try {
      await ctx.db
        .update(schema.users)
        .set({ ...defined, updatedAt: new Date() })
        .where(eq(schema.users.id, actor.id));
    } catch (error) {
      if (isUniqueViolation(error) && patch.username !== undefined) {
        await assertAvailable(ctx.db, { username: patch.username, exceptUserId: actor.id });
      }
      throw error;
    }
  }
  return getMe(ctx, actor.id);
}

/**
 * POST users/me/password/: a new password confirmed by an e-mailed code; other sessions end, and
 * the API tokens too when `revokeApiTokens` (docs/security.md, "API tokens").
 */
export async function changePassword(
  ctx: AuthContext,
  {
    actor,
    code,
    password,
    revokeApiTokens,
    origin,
  }: { actor: AuthUser; code: string; password: string; revokeApiTokens: boolean; origin: string },
): Promise<void> {
  const user = await loadUser(ctx, actor.id);
  await consumeCode(ctx, { userId: user.id, purposes: ['password_change', 'account'], code });
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    await tx.update(schema.users).set({ passwordHash, updatedAt: new Date() }).where(eq(schema.users.id, user.id));
    await recordAccountAudit(tx, user.id, {
      action: 'auth.password_changed',
      actorId: user.id,
      details: { api_tokens_revoked: revokeApiTokens },
    });
  });
  await revokeUserSessions(ctx, { userId: user.id, exceptSessionId: actor.sessionId });
  await endPasswordChange(ctx, { user, origin, revokeApiTokens });
}

/**
 * POST users/me/email/ (docs/rules.md §Accounts): an unchanged e-mail changes nothing; with 2FA off the
 * e-mail cannot change; otherwise, with a code sent to the current address, a confirmation link
 * goes to the new one. Answers the translated-key detail.
 */
export async function requestEmailChange(
  ctx: AuthContext,
  { actor, email, code, origin }: { actor: AuthUser; email: string; code: string; origin: string },
): Promise<'unchanged' | 'sent'> {
  const user = await loadUser(ctx, actor.id);
  if (user.email.toLowerCase() === email.toLowerCase()) return 'unchanged';
  if (!user.twoFactor) {
    throw new AppError('bad_request', 'E-mail cannot be changed while two-factor authentication is off.');
  }
  await assertAvailable(ctx.db, { email, exceptUserId: user.id });
  await consumeCode(ctx, { userId: user.id, purposes: ['email_change', 'account'], code });
  const token = randomToken();
  const now = new Date();
  await ctx.db
    .update(schema.emailChangeTokens)
    .set({ usedAt: now })
    .where(and(eq(schema.emailChangeTokens.userId, user.id), isNull(schema.emailChangeTokens.usedAt)));
  await ctx.db.insert(schema.emailChangeTokens).values({
    userId: user.id,
    newEmail: email,
    tokenHash: hashSecret(ctx.keys, token),
    expiresAt: new Date(now.getTime() + emailChangeHours * 3_600_000),
  });
  const link = `${origin}/change_email?${new URLSearchParams({ token }).toString()}`;
  await mailUser(ctx, user, { kind: 'email_change', link, email, hours: emailChangeHours }, email);
  return 'sent';
}

/**
 * POST users/me/email/confirm/: the link of the new mailbox applies the change (single use). A link
 * opened again after it applied the change answers 'already_confirmed' rather than a failure
 * (issue 19): the account's address is already the link's. A link spent otherwise (replaced by a
 * newer request) or expired stays invalid.
 */
export async function confirmEmailChange(
  ctx: AuthContext,
  { actor, token }: { actor: AuthUser; token: string },
): Promise<'changed' | 'already_confirmed'> {
  const now = new Date();
  const [row] = await ctx.db
    .select()
    .from(schema.emailChangeTokens)
    .where(
      and(
        eq(schema.emailChangeTokens.tokenHash, hashSecret(ctx.keys, token)),
        eq(schema.emailChangeTokens.userId, actor.id),
      ),
    );
  if (!row) throw new AppError('invalid_token');
  if (row.usedAt) {
    const user = await loadUser(ctx, actor.id);
    if (user.email.toLowerCase() === row.newEmail.toLowerCase()) return 'already_confirmed';
    throw new AppError('invalid_token');
  }
  if (row.expiresAt <= now) throw new AppError('invalid_token');
  await assertAvailable(ctx.db, { email: row.newEmail, exceptUserId: actor.id });
  // One transaction: a second request racing this one waits on the token's row and then finds it
  // spent with the address already changed, so it answers 'already_confirmed' too.
  let spent: boolean;
  try {
    spent = await ctx.db.transaction(async (tx) => {
      const rows = await tx
        .update(schema.emailChangeTokens)
        .set({ usedAt: now })
        .where(and(eq(schema.emailChangeTokens.id, row.id), isNull(schema.emailChangeTokens.usedAt)))
        .returning({ id: schema.emailChangeTokens.id });
      if (rows.length === 0) return false;
      const [before] = await tx
        .select({ email: schema.users.email })
        .from(schema.users)
        .where(eq(schema.users.id, actor.id));
      await tx
        .update(schema.users)
        .set({ email: row.newEmail, emailVerified: true, updatedAt: now })
        .where(eq(schema.users.id, actor.id));
      await recordAccountAudit(tx, actor.id, {
        action: 'auth.email_changed',
        actorId: actor.id,
        details: { from: before?.email ?? null, to: row.newEmail },
      });
      return true;
    });
  } catch (error) {
    if (isUniqueViolation(error)) await assertAvailable(ctx.db, { email: row.newEmail, exceptUserId: actor.id });
    throw error;
  }
  if (!spent) {
    const user = await loadUser(ctx, actor.id);
    if (user.email.toLowerCase() === row.newEmail.toLowerCase()) return 'already_confirmed';
    throw new AppError('invalid_token');
  }
  return 'changed';
}

/** POST users/me/two_factor/: turns 2FA on or off, confirmed by an e-mailed code. */
export async function setTwoFactor(
  ctx: AuthContext,
  { actor, enabled, code }: { actor: AuthUser; enabled: boolean; code: string },
): Promise<void> {
  await consumeCode(ctx, { userId: actor.id, purposes: ['two_factor', 'account'], code });
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(schema.users)
      .set({ twoFactor: enabled, updatedAt: new Date() })
      .where(eq(schema.users.id, actor.id));
    await recordAccountAudit(tx, actor.id, {
      action: enabled ? 'auth.two_factor_on' : 'auth.two_factor_off',
      actorId: actor.id,
    });
  });
}
