import { and, eq, gt, isNull } from 'drizzle-orm';
import type { TLanguage, TRegister, TTokenPair } from '@stageline/shared';
import { schema } from '../../db';
import { AppError } from '../../http/errors';
import { recordAccountAudit } from '../audit';
import { clearCount, countHit, digest, peekCount, rateLimited, type RateRule } from '../../http/rate-limit';
import { liveApiTokenNames, revokeUserApiTokens } from './api-tokens';
import { mailUser, type AuthContext, type ClientInfo, type UserRow } from './context';
import { consumeCode, sendCode, type CodePurpose } from './codes';
import { hashPassword, verifyPassword } from './passwords';
import { issueSession, revokeUserSessions } from './sessions';
import { hashSecret, randomToken, signEphemeral, verifyToken, type EphemeralPurpose } from './tokens';
import { assertAvailable, findUserByEmail, findUserById, findUserByLogin, isUniqueViolation } from './users-lookup';

/** Password-reset links live one hour (issue 3) and work once. */
export const passwordResetMinutes = 60;

/**
 * Creates an unverified account, e-mails a verification code and answers the ephemeral token that
 * `otp/check/` takes with the code.
 */
export async function registerUser(
  ctx: AuthContext,
  { input, language }: { input: TRegister; language: TLanguage },
): Promise<{ ephemeral_token: string }> {
  await assertAvailable(ctx.db, { username: input.username, email: input.email });
  const passwordHash = await hashPassword(input.password);
  let user: UserRow;
  try {
    [user] = (await ctx.db
      .insert(schema.users)
      .values({
        username: input.username,
        email: input.email,
        passwordHash,
        firstName: input.first_name ?? '',
        lastName: input.last_name ?? '',
        language: input.language ?? language,
        timeZone: input.time_zone ?? null,
      })
      .returning()) as [UserRow];
  } catch (error) {
    if (isUniqueViolation(error)) await assertAvailable(ctx.db, { username: input.username, email: input.email });
    throw error;
  }
  await sendCode(ctx, { user, purpose: 'verify_email' });
  return { ephemeral_token: signEphemeral(ctx.keys, user.id, 'register') };
}

/** The counter of failed password sign-ins of an account, or of a name no account has. */
function failureKey(user: UserRow | undefined, login: string): string {
  return user ? `login-fail:account:${user.id}` : `login-fail:name:${digest(login.trim().toLowerCase())}`;
}

/**
 * Checks a username-or-e-mail and password. Answers tokens; or, with 2FA on, an ephemeral token
 * (a code is e-mailed); an unverified e-mail is a 403 carrying an ephemeral token to verify it with.
 *
 * Failed tries count per account, however it was named (docs/security.md). Past `failureRule`, the
 * account is not locked out — anyone could lock anyone out — but its password alone no longer signs
 * in: every try answers the same ephemeral token, and a code is e-mailed only when the password was
 * right, so guessing learns nothing and the owner signs in with password + code (or OAuth).
 */
export async function logIn(
  ctx: AuthContext,
  {
    login,
    password,
    client,
    failureRule,
  }: { login: string; password: string; client: ClientInfo; failureRule: RateRule },
): Promise<TTokenPair | { ephemeral_token: string; detail?: string }> {
  const user = await findUserByLogin(ctx.db, login);
  const key = failureKey(user, login);
  const locked = (await peekCount(ctx.db, key)).hits >= failureRule.max;
  const valid = await verifyPassword(user?.passwordHash, password);
  if (user && locked) {
    if (valid) await sendCode(ctx, { user, purpose: 'login', whenTooSoon: 'skip' });
    else {
      await countHit(ctx.db, key, failureRule);
      await recordSignInFailure(ctx, user, 'locked');
    }
    return { ephemeral_token: signEphemeral(ctx.keys, user.id, 'unlock'), detail: lockedDetail };
  }
  if (!user || !valid) {
    if (user) await recordSignInFailure(ctx, user, 'password');
    const failures = await countHit(ctx.db, key, failureRule);
    if (!user && failures.hits > failureRule.max) throw rateLimited(failures.retryAfter);
    throw new AppError('invalid_credentials');
  }
  await clearCount(ctx.db, key);
  if (!user.emailVerified) {
    // A code sent less than 30 s ago is still valid: do not send another.
    await sendCode(ctx, { user, purpose: 'verify_email', whenTooSoon: 'skip' });
    const ephemeral_token = signEphemeral(ctx.keys, user.id, 'register');
    throw new AppError('email_not_verified', undefined, {}, {}, { ephemeral_token });
  }
  if (user.twoFactor) return beginSecondFactor(ctx, user);
  return issueSession(ctx, { userId: user.id, client });
}

/**
 * A wrong password for an existing account, in the audit log of its workspaces: the actor is the
 * account tried (whoever typed it is unknown). A name no account has leaves no entry (decision 221).
 */
async function recordSignInFailure(ctx: AuthContext, user: UserRow, reason: 'password' | 'locked') {
  await recordAccountAudit(ctx.db, user.id, { action: 'auth.sign_in_failed', actorId: user.id, details: { reason } });
}

/**
 * The second step of a sign-in with 2FA on (password or OAuth): e-mails a login code (keeping one
 * sent less than 30 s ago) and answers the ephemeral token that `otp/check/` takes with it.
 */
export async function beginSecondFactor(ctx: AuthContext, user: UserRow): Promise<{ ephemeral_token: string }> {
  await sendCode(ctx, { user, purpose: 'login', whenTooSoon: 'skip' });
  return { ephemeral_token: signEphemeral(ctx.keys, user.id, 'login') };
}

/** What a sign-in past its failure limit answers, whether or not the password was right. */
export const lockedDetail = 'Too many failed sign-ins. If the password was right, we e-mailed you a code to finish.';

const codePurposeOf: Record<EphemeralPurpose, CodePurpose> = {
  register: 'verify_email',
  login: 'login',
  unlock: 'login',
};

/** The user and step an ephemeral token stands for; 400 `invalid_token` when it is no longer usable. */
async function ephemeralUser(ctx: AuthContext, token: string) {
  const claims = verifyToken(ctx.keys, token, 'ephemeral');
  const user = claims ? await findUserById(ctx.db, claims.userId) : undefined;
  if (!claims || !user) throw new AppError('invalid_token');
  // Once verified, a sign-up token must not become a password-less way in.
  if (claims.purpose === 'register' && user.emailVerified) throw new AppError('invalid_token');
  if (claims.purpose === 'login' && !user.twoFactor) throw new AppError('invalid_token');
  return { user, purpose: claims.purpose };
}

/** otp/check/: the code of a sign-up (verifies the e-mail) or of a 2FA login; both sign in. */
export async function checkCode(
  ctx: AuthContext,
  { ephemeralToken, code, client }: { ephemeralToken: string; code: string; client: ClientInfo },
): Promise<TTokenPair> {
  const { user, purpose } = await ephemeralUser(ctx, ephemeralToken);
  await consumeCode(ctx, { userId: user.id, purposes: [codePurposeOf[purpose]], code });
  await clearCount(ctx.db, failureKey(user, user.username));
  // The code reached the account's address: that verifies it, whichever step sent it.
  if (!user.emailVerified) {
    await ctx.db
      .update(schema.users)
      .set({ emailVerified: true, updatedAt: new Date() })
      .where(eq(schema.users.id, user.id));
  }
  return issueSession(ctx, { userId: user.id, client, method: 'code' });
}

/** otp/send/ with an ephemeral token: a new code for the sign-up or 2FA step. */
export async function resendStepCode(ctx: AuthContext, { ephemeralToken }: { ephemeralToken: string }): Promise<void> {
  const { user, purpose } = await ephemeralUser(ctx, ephemeralToken);
  // An unlock code is sent only for a right password: a new one needs the password again.
  if (purpose === 'unlock') throw new AppError('invalid_token', 'Sign in again with your password to get a new code.');
  await sendCode(ctx, { user, purpose: codePurposeOf[purpose] });
}

/** otp/send/ signed in: a code confirming a password change, an e-mail change or a 2FA switch. */
export async function sendAccountCode(
  ctx: AuthContext,
  { userId, purpose }: { userId: number; purpose: CodePurpose },
): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('not_authenticated');
  await sendCode(ctx, { user, purpose });
}

/**
 * E-mails a single-use reset link when the address belongs to an account. The caller answers the
 * same either way, so the call tells nobody whether an address is registered.
 */
export async function requestPasswordReset(ctx: AuthContext, { email, origin }: { email: string; origin: string }) {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) return;
  const token = randomToken();
  const now = new Date();
  await ctx.db.insert(schema.passwordResetTokens).values({
    userId: user.id,
    tokenHash: hashSecret(ctx.keys, token),
    expiresAt: new Date(now.getTime() + passwordResetMinutes * 60_000),
  });
  const query = new URLSearchParams({ token, email: user.email });
  await mailUser(ctx, user, {
    kind: 'password_reset',
    link: `${origin}/reset_pass?${query.toString()}`,
    minutes: passwordResetMinutes,
  });
}

async function liveResetToken(ctx: AuthContext, { token, email }: { token: string; email: string }) {
  const user = await findUserByEmail(ctx.db, email);
  if (!user) throw new AppError('invalid_token');
  const [row] = await ctx.db
    .select()
    .from(schema.passwordResetTokens)
    .where(
      and(
        eq(schema.passwordResetTokens.tokenHash, hashSecret(ctx.keys, token)),
        eq(schema.passwordResetTokens.userId, user.id),
        isNull(schema.passwordResetTokens.usedAt),
        gt(schema.passwordResetTokens.expiresAt, new Date()),
      ),
    );
  if (!row) throw new AppError('invalid_token');
  return { user, row };
}

/** Whether a reset link is still usable (the new-password step opens only then). */
export async function validatePasswordResetToken(ctx: AuthContext, input: { token: string; email: string }) {
  await liveResetToken(ctx, input);
}

/**
 * Sets a new password from a reset link: spends the link (and every other of the user), proves the
 * e-mail, signs the user out everywhere, revokes every API token and tells them by mail.
 */
export async function confirmPasswordReset(
  ctx: AuthContext,
  { token, email, password, origin }: { token: string; email: string; password: string; origin: string },
) {
  const { user, row } = await liveResetToken(ctx, { token, email });
  const passwordHash = await hashPassword(password);
  const now = new Date();
  const spent = await ctx.db
    .update(schema.passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(schema.passwordResetTokens.id, row.id), isNull(schema.passwordResetTokens.usedAt)))
    .returning({ id: schema.passwordResetTokens.id });
  if (spent.length === 0) throw new AppError('invalid_token');
  await ctx.db
    .update(schema.passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(schema.passwordResetTokens.userId, user.id), isNull(schema.passwordResetTokens.usedAt)));
  await ctx.db
    .update(schema.users)
    .set({ passwordHash, emailVerified: true, updatedAt: now })
    .where(eq(schema.users.id, user.id));
  await revokeUserSessions(ctx, { userId: user.id });
  await recordAccountAudit(ctx.db, user.id, {
    action: 'auth.password_reset',
    actorId: user.id,
    details: { sessions_revoked: true, api_tokens_revoked: true },
  });
  await endPasswordChange(ctx, { user, origin, revokeApiTokens: true });
}

/**
 * The end of a password change or reset: revokes the user's API tokens when asked (a reset always
 * asks: whoever took the account over may hold one) and mails the "password changed" notice, which
 * names every token that still works (docs/security.md, "API tokens").
 */
export async function endPasswordChange(
  ctx: AuthContext,
  { user, origin, revokeApiTokens }: { user: UserRow; origin: string; revokeApiTokens: boolean },
): Promise<void> {
  const revokedTokens = revokeApiTokens ? await revokeUserApiTokens(ctx.db, user.id) : 0;
  const liveTokens = await liveApiTokenNames(ctx.db, user.id);
  await mailUser(ctx, user, {
    kind: 'password_changed',
    resetLink: `${origin}/reset_pass`,
    tokensLink: `${origin}/app/profile`,
    liveTokens,
    revokedTokens,
  });
}
