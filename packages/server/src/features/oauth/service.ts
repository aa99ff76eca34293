import { timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { paths, type TLanguage, type TOAuthLoginResult } from '@stageline/shared';
import { schema } from '../../db';
import { AppError } from '../../http/errors';
import {
  beginSecondFactor,
  findUserByEmail,
  findUserById,
  isUniqueViolation,
  issueSession,
  type AuthContext,
  type ClientInfo,
  type UserRow,
} from '../auth';
import type { OAuthClient } from './client';
import { signFlow, verifyFlow, type FlowClaims } from './flow-cookie';
import type { OAuthProfile } from './profile';
import { baseUsername, uniqueUsername } from './username';

export type OAuthContext = AuthContext & { clients: Map<string, OAuthClient> };

/** The provider of a path; 404 for one that is not configured. */
export function clientOf(ctx: OAuthContext, provider: string): OAuthClient {
  const client = ctx.clients.get(provider);
  if (!client) throw new AppError('not_found');
  return client;
}

/**
 * Where the provider sends the browser back: the web app's /oauth/{provider} screen, on PUBLIC_URL
 * or the origin the flow started from. Register exactly this URL at the provider.
 */
export function redirectUriOf(origin: string, provider: string): string {
  return `${origin}${paths.oauthReturn(provider)}`;
}

/** A `next` worth keeping: a path of this site (the web app sanitises it again). */
function safeNext(next: string | undefined): string | undefined {
  if (!next || !next.startsWith('/') || next.startsWith('//')) return undefined;
  const unsafe = [...next].some((char) => char === '\\' || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
  return unsafe ? undefined : next;
}

/**
 * Starts an authorization-code flow with PKCE (S256), state and, for OpenID Connect, a nonce.
 * Answers the provider's URL and the flow token the browser keeps in a cookie.
 */
export async function startFlow(
  ctx: OAuthContext,
  { provider, origin, next, linkUserId }: { provider: string; origin: string; next?: string; linkUserId?: number },
): Promise<{ url: string; flowToken: string }> {
  const client = clientOf(ctx, provider);
  const verifier = oidc.randomPKCECodeVerifier();
  const claims: FlowClaims = {
    provider,
    state: oidc.randomState(),
    verifier,
    nonce: client.isOidc ? oidc.randomNonce() : undefined,
    redirectUri: redirectUriOf(origin, provider),
    next: safeNext(next),
    linkUserId,
  };
  let url: URL;
  try {
    url = await client.authorizationUrl({
      redirectUri: claims.redirectUri,
      state: claims.state,
      codeChallenge: await oidc.calculatePKCECodeChallenge(verifier),
      nonce: claims.nonce,
    });
  } catch (error) {
    ctx.log.warn({ err: error, provider }, 'OAuth provider unavailable');
    throw new AppError('oauth_failed', 'Could not reach the sign-in provider. Try again later.');
  }
  return { url: url.href, flowToken: signFlow(ctx.keys, claims) };
}

type CallbackInput = {
  provider: string;
  code: string;
  state: string;
  iss?: string;
  flowToken: string | undefined;
  client: ClientInfo;
  language: TLanguage;
};

/**
 * Finishes a flow: checks the flow cookie against the provider and state, exchanges the code and
 * reads the profile, then links (a flow started from the profile) or signs in.
 */
export async function finishFlow(ctx: OAuthContext, input: CallbackInput): Promise<TOAuthLoginResult> {
  const client = clientOf(ctx, input.provider);
  const flow = input.flowToken ? verifyFlow(ctx.keys, input.flowToken) : null;
  if (!flow || flow.provider !== input.provider || !sameText(flow.state, input.state)) {
    throw new AppError('oauth_state_invalid');
  }
  const callback = new URL(flow.redirectUri);
  callback.searchParams.set('code', input.code);
  callback.searchParams.set('state', input.state);
  if (input.iss) callback.searchParams.set('iss', input.iss);
  let profile: OAuthProfile;
  try {
    profile = await client.profile(callback, flow);
  } catch (error) {
    ctx.log.warn({ err: error, provider: input.provider }, 'OAuth code exchange failed');
    throw new AppError('oauth_failed');
  }
  if (flow.linkUserId !== undefined) {
    await linkAccount(ctx, { userId: flow.linkUserId, provider: input.provider, profile });
    return { linked: true, provider: input.provider, next: flow.next };
  }
  return signInWith(ctx, { ...input, profile, next: flow.next });
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

async function accountOf(ctx: OAuthContext, provider: string, subject: string) {
  const [account] = await ctx.db
    .select()
    .from(schema.oauthAccounts)
    .where(and(eq(schema.oauthAccounts.provider, provider), eq(schema.oauthAccounts.subject, subject)));
  return account;
}

/**
 * Links a provider account to a user. Refuses one linked to someone else, and a second account of
 * a provider the user already linked (unlinking works per provider).
 */
async function linkAccount(
  ctx: OAuthContext,
  { userId, provider, profile }: { userId: number; provider: string; profile: OAuthProfile },
): Promise<void> {
  const user = await findUserById(ctx.db, userId);
  if (!user) throw new AppError('oauth_state_invalid');
  const existing = await accountOf(ctx, provider, profile.subject);
  if (existing) {
    if (existing.userId !== userId) throw new AppError('oauth_account_taken');
    await ctx.db
      .update(schema.oauthAccounts)
      .set({ email: profile.email })
      .where(eq(schema.oauthAccounts.id, existing.id));
    return;
  }
  const [other] = await ctx.db
    .select({ id: schema.oauthAccounts.id })
    .from(schema.oauthAccounts)
    .where(and(eq(schema.oauthAccounts.userId, userId), eq(schema.oauthAccounts.provider, provider)));
  if (other) throw new AppError('oauth_already_linked');
  try {
    await ctx.db
      .insert(schema.oauthAccounts)
      .values({ userId, provider, subject: profile.subject, email: profile.email });
  } catch (error) {
    // Linked by someone else between the check and the insert.
    if (isUniqueViolation(error)) throw new AppError('oauth_account_taken');
    throw error;
  }
}

/**
 * Sign-in: the user of this provider account; else the user whose e-mail the provider vouches for
 * (linked now); else a new user. An unverified e-mail matching an account is refused: it proves
 * nothing about who owns that account.
 */
async function signInWith(
  ctx: OAuthContext,
  input: CallbackInput & { profile: OAuthProfile; next?: string },
): Promise<TOAuthLoginResult> {
  const { profile, provider } = input;
  const existing = await accountOf(ctx, provider, profile.subject);
  if (existing) {
    const user = await findUserById(ctx.db, existing.userId);
    if (!user) throw new AppError('oauth_failed');
    if (existing.email !== profile.email) {
      await ctx.db
        .update(schema.oauthAccounts)
        .set({ email: profile.email })
        .where(eq(schema.oauthAccounts.id, existing.id));
    }
    return session(ctx, user, input);
  }
  if (!profile.email) throw new AppError('oauth_email_missing');
  const owner = await findUserByEmail(ctx.db, profile.email);
  if (owner) {
    if (!profile.emailVerified) throw new AppError('oauth_email_taken');
    await linkAccount(ctx, { userId: owner.id, provider, profile });
    // The provider proved the address. A password set by someone who never proved it could belong
    // to anyone who typed this e-mail at sign-up: it is dropped (a reset sets a new one).
    await ctx.db
      .update(schema.users)
      .set({ emailVerified: true, ...(owner.emailVerified ? {} : { passwordHash: null }), updatedAt: new Date() })
      .where(eq(schema.users.id, owner.id));
    const result = await session(ctx, owner, input);
    return 'access' in result ? { ...result, linked: true } : result;
  }
  return session(ctx, await createUser(ctx, input), input);
}

/** A new account for a provider profile: no password, the e-mail verified if the provider says so. */
async function createUser(ctx: OAuthContext, input: CallbackInput & { profile: OAuthProfile }): Promise<UserRow> {
  const { profile, provider } = input;
  const base = baseUsername(profile);
  for (let attempt = 0; attempt < 3; attempt++) {
    const username = await uniqueUsername(ctx.db, base);
    try {
      return await ctx.db.transaction(async (tx) => {
        const [user] = await tx
          .insert(schema.users)
          .values({
            username,
            email: profile.email!,
            emailVerified: profile.emailVerified,
            passwordHash: null,
            firstName: profile.firstName.slice(0, 150),
            lastName: profile.lastName.slice(0, 150),
            language: input.language,
          })
          .returning();
        await tx
          .insert(schema.oauthAccounts)
          .values({ userId: user!.id, provider, subject: profile.subject, email: profile.email });
        return user!;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Lost a race: the e-mail or the provider account arrived meanwhile, or the username.
      if (await findUserByEmail(ctx.db, profile.email!)) throw new AppError('oauth_email_taken');
      if (await accountOf(ctx, provider, profile.subject)) throw new AppError('conflict');
    }
  }
  throw new AppError('conflict');
}

/** Tokens, or the 2FA step when the user has it on (a code is e-mailed, as after a password). */
async function session(ctx: OAuthContext, user: UserRow, input: CallbackInput & { next?: string }) {
  const result = user.twoFactor
    ? await beginSecondFactor(ctx, user)
    : await issueSession(ctx, { userId: user.id, client: input.client, method: 'oauth' });
  return input.next ? { ...result, next: input.next } : result;
}

/**
 * Unlinks the user's account of a provider, unless it is their last way to sign in (no password
 * and no other linked account). The user row is locked so two unlinks cannot both pass the check.
 */
export async function unlinkAccount(ctx: AuthContext, { userId, provider }: { userId: number; provider: string }) {
  await ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ passwordHash: schema.users.passwordHash })
      .from(schema.users)
      .where(eq(schema.users.id, userId))
      .for('update');
    if (!user) throw new AppError('not_authenticated');
    const accounts = await tx
      .select({ id: schema.oauthAccounts.id, provider: schema.oauthAccounts.provider })
      .from(schema.oauthAccounts)
      .where(eq(schema.oauthAccounts.userId, userId));
    const target = accounts.filter((account) => account.provider === provider);
    if (target.length === 0) throw new AppError('not_found');
    if (user.passwordHash === null && target.length === accounts.length) {
      throw new AppError('oauth_last_login_method');
    }
    await tx
      .delete(schema.oauthAccounts)
      .where(and(eq(schema.oauthAccounts.userId, userId), eq(schema.oauthAccounts.provider, provider)));
  });
}
