// One file for now: invites by e-mail, by username and by link share one accept/decline path and its row locks; splitting it by kind is open in issue 18 item 4.
import { and, asc, eq, isNull, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  isLanguage,
  Limits,
  personName,
  type TAssignableRole,
  type TLanguage,
  type TPendingInvite,
} from '@stageline/shared';
import type { TFunction } from 'i18next';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import {
  findUserById,
  findUserByLogin,
  hashSecret,
  isUniqueViolation,
  randomToken,
  type AuthContext,
  type UserRow,
} from '../auth';
import { renderMail } from '../mail';
import { recordAudit } from '../audit';
import { emitWebhookEvents } from '../events';
import { notify } from '../notifications';
import { membershipOf, authorizeIn } from './policy';
import { getWorkspace } from './service';

const { invites, inviteLinks, memberships, users, workspaces } = schema;
type InviteRow = typeof invites.$inferSelect;
type LinkRow = typeof inviteLinks.$inferSelect;

const looksLikeEmail = (value: string) => value.includes('@');

/** Invites addressed to `user`: to their account, or to their e-mail once it is verified. */
function addressedTo(user: UserRow): SQL {
  const byAccount = eq(invites.userId, user.id);
  if (!user.emailVerified) return byAccount;
  return or(byAccount, and(isNull(invites.userId), eq(invites.email, user.email.toLowerCase())))!;
}

/** E-mails an invite with its personal `/p/{token}` link, in the invitee's language (else the inviter's). */
async function mailInvite(
  ctx: AuthContext,
  {
    invite,
    token,
    inviter,
    invitee,
    origin,
  }: { invite: InviteRow; token: string; inviter: UserRow; invitee: UserRow | undefined; origin: string },
) {
  const [workspace] = await ctx.db
    .select({ name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, invite.workspaceId));
  const language: TLanguage = [invitee?.language, inviter.language].find((l) => l && isLanguage(l)) as TLanguage;
  const to = invitee?.email ?? invite.email!;
  const content = renderMail(
    {
      kind: 'workspace_invite',
      workspace: workspace?.name ?? '',
      inviter: personName(inviter),
      role: invite.role,
      link: `${origin}/p/${token}`,
    },
    { name: invitee ? personName(invitee) : to, language: language ?? 'en' },
  );
  await ctx.mailer.send({ to, ...content });
}

type InviteOptions = {
  userId: number;
  workspaceId: number;
  users: string[];
  role: TAssignableRole;
  origin: string;
  t: TFunction;
};

/**
 * POST workspaces/{id}/invite/ (Admin and above): each entry is a username or an e-mail. A known
 * account is invited as itself; an e-mail without an account gets an invite that reaches whoever
 * verifies that address later. Unknown usernames, members and already invited people fail one by one.
 */
export async function inviteUsers(ctx: AuthContext, options: InviteOptions) {
  const { userId, workspaceId, role, origin, t } = options;
  await authorizeIn(ctx.db, { userId, workspaceId, resource: 'workspace', action: 'invite' });
  const inviter = (await findUserById(ctx.db, userId))!;
  const result = { invited: 0, failed: 0, errors: [] as { user: string; detail: string }[] };
  const fail = (user: string, detail: string) => {
    result.failed += 1;
    result.errors.push({ user, detail: t(detail, { user }) });
  };
  const seen = new Set<string>();
  for (const raw of options.users) {
    const entry = raw.trim();
    const key = entry.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    // Longer than any username or e-mail: refused on its own, the others still go (decision 196).
    if (entry.length > Math.max(Limits.email.max, Limits.username.max)) {
      fail(entry, 'Not a username or an e-mail: too long.');
      continue;
    }
    const invitee = await findUserByLogin(ctx.db, entry);
    if (!invitee && !looksLikeEmail(entry)) {
      fail(entry, 'User {{user}} was not found.');
      continue;
    }
    if (!invitee && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(entry)) {
      fail(entry, 'Not a valid e-mail address.');
      continue;
    }
    if (invitee && (await membershipOf(ctx.db, { userId: invitee.id, workspaceId }))) {
      fail(entry, '{{user}} is already a member of the workspace.');
      continue;
    }
    const [already] = await ctx.db
      .select({ id: invites.id })
      .from(invites)
      .where(
        and(
          eq(invites.workspaceId, workspaceId),
          eq(invites.status, 'pending'),
          invitee ? addressedTo(invitee) : eq(invites.email, key),
        ),
      );
    if (already) {
      fail(entry, '{{user}} is already invited.');
      continue;
    }
    const token = randomToken();
    let invite: InviteRow;
    try {
      // An existing account is also notified in the app (`invited`), in the invite's transaction.
      invite = await ctx.db.transaction(async (tx) => {
        const [row] = (await tx
          .insert(invites)
          .values({
            workspaceId,
            userId: invitee?.id ?? null,
            email: invitee ? null : key,
            invitedAs: entry,
            role,
            inviterId: userId,
            tokenHash: hashSecret(ctx.keys, token),
          })
          .returning()) as [InviteRow];
        if (invitee) await notify(tx, { kind: 'invited', recipients: [invitee.id], actorId: userId, workspaceId });
        await recordAudit(tx, workspaceId, {
          action: 'member.invited',
          actorId: userId,
          target: invitee
            ? { kind: 'user', id: invitee.id, name: invitee.username }
            : { kind: 'invite', id: row.id, name: key },
          details: { role },
        });
        return row;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      fail(entry, '{{user}} is already invited.');
      continue;
    }
    await mailInvite(ctx, { invite, token, inviter, invitee, origin });
    result.invited += 1;
  }
  return result;
}

async function pendingInviteOf(db: Db, { workspaceId, inviteId }: { workspaceId: number; inviteId: number }) {
  const [invite] = await db
    .select()
    .from(invites)
    .where(and(eq(invites.id, inviteId), eq(invites.workspaceId, workspaceId), eq(invites.status, 'pending')));
  if (!invite) throw new AppError('not_found');
  return invite;
}

/**
 * POST workspaces/{id}/invites/{inviteId}/resend/ (Admin and above): a new personal link (the old
 * one stops working) at most every 30 seconds (429 with Retry-After).
 */
export async function resendInvite(
  ctx: AuthContext,
  { userId, workspaceId, inviteId, origin }: { userId: number; workspaceId: number; inviteId: number; origin: string },
) {
  await authorizeIn(ctx.db, { userId, workspaceId, resource: 'workspace', action: 'invite' });
  const invite = await pendingInviteOf(ctx.db, { workspaceId, inviteId });
  const now = new Date();
  const waitMs = invite.sentAt.getTime() + Limits.inviteResendSeconds * 1000 - now.getTime();
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new AppError('rate_limited', undefined, { seconds }, { 'retry-after': String(seconds) });
  }
  const token = randomToken();
  // Conditional on the old token: of two concurrent resends, one sends (timestamps lose precision in JS).
  const [updated] = await ctx.db
    .update(invites)
    .set({ tokenHash: hashSecret(ctx.keys, token), sentAt: now })
    .where(and(eq(invites.id, invite.id), eq(invites.status, 'pending'), eq(invites.tokenHash, invite.tokenHash)))
    .returning();
  if (!updated) throw new AppError('conflict');
  const inviter = (await findUserById(ctx.db, userId))!;
  const invitee = updated.userId ? await findUserById(ctx.db, updated.userId) : undefined;
  await mailInvite(ctx, { invite: updated, token, inviter, invitee, origin });
}

/** DELETE workspaces/{id}/invites/{inviteId}/ (Admin and above): the personal link stops working. */
export async function cancelInvite(
  db: Db,
  { userId, workspaceId, inviteId }: { userId: number; workspaceId: number; inviteId: number },
) {
  await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'invite' });
  const invite = await pendingInviteOf(db, { workspaceId, inviteId });
  await db.transaction(async (tx) => {
    const cancelled = await tx
      .update(invites)
      .set({ status: 'cancelled', respondedAt: new Date() })
      .where(and(eq(invites.id, invite.id), eq(invites.status, 'pending')))
      .returning({ id: invites.id });
    if (cancelled.length === 0) return;
    await recordAudit(tx, workspaceId, {
      action: 'member.invite_cancelled',
      actorId: userId,
      target: { kind: 'invite', id: invite.id, name: invite.invitedAs },
    });
  });
}

const inviters = alias(users, 'inviter');

/** GET invites/: the caller's pending direct invites, for the workspace list. */
export async function myInvites(db: Db, userId: number): Promise<TPendingInvite[]> {
  const me = await findUserById(db, userId);
  if (!me) throw new AppError('not_authenticated');
  const rows = await db
    .select({
      id: invites.id,
      role: invites.role,
      createdAt: invites.createdAt,
      workspace: { id: workspaces.id, name: workspaces.name },
      inviter: { firstName: inviters.firstName, lastName: inviters.lastName, username: inviters.username },
    })
    .from(invites)
    .innerJoin(workspaces, eq(workspaces.id, invites.workspaceId))
    .leftJoin(inviters, eq(inviters.id, invites.inviterId))
    .where(and(eq(invites.status, 'pending'), addressedTo(me)))
    .orderBy(asc(invites.createdAt), asc(invites.id));
  return rows.map((row) => ({
    id: row.id,
    workspace: row.workspace,
    role: row.role,
    inviter_name: row.inviter ? personName(row.inviter) : null,
    created_at: row.createdAt.toISOString(),
  }));
}

/** What an invite key (`invites/{key}/…`) stands for. */
type Resolved = { kind: 'invite'; invite: InviteRow } | { kind: 'link'; link: LinkRow };

/**
 * Resolves the key of an invite call: a numeric invite id, the token of an invite link (`/i/…`) or of
 * a personal link (`/p/…`). A direct invite must be addressed to the caller; anything else, and
 * anything no longer pending or active, is 404.
 */
async function resolveKey(ctx: AuthContext, me: UserRow, key: string): Promise<Resolved> {
  const mine = and(eq(invites.status, 'pending'), addressedTo(me));
  if (/^\d{1,10}$/.test(key)) {
    const id = Number(key);
    if (id > Limits.maxId) throw new AppError('not_found');
    const [invite] = await ctx.db
      .select()
      .from(invites)
      .where(and(eq(invites.id, id), mine));
    if (!invite) throw new AppError('not_found');
    return { kind: 'invite', invite };
  }
  const [link] = await ctx.db
    .select()
    .from(inviteLinks)
    .where(and(eq(inviteLinks.token, key), isNull(inviteLinks.disabledAt)));
  if (link) return { kind: 'link', link };
  const [invite] = await ctx.db
    .select()
    .from(invites)
    .where(and(eq(invites.tokenHash, hashSecret(ctx.keys, key)), mine));
  if (!invite) throw new AppError('not_found');
  return { kind: 'invite', invite };
}

async function caller(db: Db, userId: number): Promise<UserRow> {
  const me = await findUserById(db, userId);
  if (!me) throw new AppError('not_authenticated');
  return me;
}

/** GET invites/{key}/: what the accept screen shows before the caller accepts. */
export async function previewInvite(ctx: AuthContext, { userId, key }: { userId: number; key: string }) {
  const me = await caller(ctx.db, userId);
  const resolved = await resolveKey(ctx, me, key);
  const workspaceId = resolved.kind === 'link' ? resolved.link.workspaceId : resolved.invite.workspaceId;
  const inviterId = resolved.kind === 'link' ? resolved.link.createdBy : resolved.invite.inviterId;
  const [workspace] = await ctx.db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId));
  if (!workspace) throw new AppError('not_found');
  const inviter = inviterId ? await findUserById(ctx.db, inviterId) : undefined;
  return {
    workspace,
    role: resolved.kind === 'link' ? resolved.link.role : resolved.invite.role,
    inviter_name: inviter ? personName(inviter) : null,
    member: (await membershipOf(ctx.db, { userId, workspaceId })) !== undefined,
  };
}

/** The `member.joined` webhook event of someone who just joined, in the accept's transaction. */
async function memberJoined(tx: Db, { workspaceId, user, role }: { workspaceId: number; user: UserRow; role: string }) {
  await emitWebhookEvents(tx, workspaceId, [
    { event: 'member.joined', data: { user: { id: user.id, username: user.username }, role } },
  ]);
  await recordAudit(tx, workspaceId, {
    action: 'member.joined',
    actorId: user.id,
    target: { kind: 'user', id: user.id, name: user.username },
    details: { role },
  });
}

/**
 * POST invites/{key}/accept/: joins with the offered role and answers the workspace. Someone who is
 * already a member keeps their role (the invite is spent). Concurrent accepts make one membership:
 * the unique (workspace, user) index decides, and a direct invite is spent once.
 */
export async function acceptInvite(ctx: AuthContext, { userId, key }: { userId: number; key: string }) {
  const me = await caller(ctx.db, userId);
  const resolved = await resolveKey(ctx, me, key);
  const workspaceId = await ctx.db.transaction(async (tx) => {
    if (resolved.kind === 'link') {
      const { link } = resolved;
      const joined = await tx
        .insert(memberships)
        .values({
          workspaceId: link.workspaceId,
          userId,
          role: link.role,
          invitedBy: 'link',
          inviterId: link.createdBy,
        })
        .onConflictDoNothing({ target: [memberships.workspaceId, memberships.userId] })
        .returning({ id: memberships.id });
      if (joined.length > 0) await memberJoined(tx, { workspaceId: link.workspaceId, user: me, role: link.role });
      return link.workspaceId;
    }
    const { invite } = resolved;
    const spent = await tx
      .update(invites)
      .set({ status: 'accepted', userId, respondedAt: new Date() })
      .where(and(eq(invites.id, invite.id), eq(invites.status, 'pending')))
      .returning({ id: invites.id });
    if (spent.length === 0) throw new AppError('not_found');
    const joined = await tx
      .insert(memberships)
      .values({
        workspaceId: invite.workspaceId,
        userId,
        role: invite.role,
        invitedBy: 'user',
        inviterId: invite.inviterId,
      })
      .onConflictDoNothing({ target: [memberships.workspaceId, memberships.userId] })
      .returning({ id: memberships.id });
    if (joined.length > 0) await memberJoined(tx, { workspaceId: invite.workspaceId, user: me, role: invite.role });
    return invite.workspaceId;
  });
  return getWorkspace(ctx.db, { userId, workspaceId });
}

/** POST invites/{key}/decline/: a direct invite is marked declined; a link has nothing to record. */
export async function declineInvite(ctx: AuthContext, { userId, key }: { userId: number; key: string }) {
  const me = await caller(ctx.db, userId);
  const resolved = await resolveKey(ctx, me, key);
  if (resolved.kind === 'link') return;
  const declined = await ctx.db
    .update(invites)
    .set({ status: 'declined', respondedAt: new Date() })
    .where(and(eq(invites.id, resolved.invite.id), eq(invites.status, 'pending')))
    .returning({ id: invites.id });
  if (declined.length === 0) throw new AppError('not_found');
}

const presentLink = (link: LinkRow) => ({ token: link.token, role: link.role });

/** GET workspaces/{id}/link/ (Admin and above): the active invite link, or 404. */
export async function getLink(db: Db, { userId, workspaceId }: { userId: number; workspaceId: number }) {
  await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'manage_link' });
  const [link] = await db
    .select()
    .from(inviteLinks)
    .where(and(eq(inviteLinks.workspaceId, workspaceId), isNull(inviteLinks.disabledAt)));
  // No link is a state, not a missing record: null, so the settings screen logs no 404 (decision 195).
  return link ? presentLink(link) : null;
}

/**
 * POST workspaces/{id}/link/ (Admin and above): a new link with `role`, replacing the active one (its
 * token stops working). The one-active-link index makes a concurrent creation a 409.
 */
export async function createLink(
  db: Db,
  { userId, workspaceId, role }: { userId: number; workspaceId: number; role: TAssignableRole },
) {
  await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'manage_link' });
  const link = await db.transaction(async (tx) => {
    await tx
      .update(inviteLinks)
      .set({ disabledAt: new Date() })
      .where(and(eq(inviteLinks.workspaceId, workspaceId), isNull(inviteLinks.disabledAt)));
    const [row] = await tx
      .insert(inviteLinks)
      .values({ workspaceId, token: randomToken(), role, createdBy: userId })
      .returning();
    return row!;
  });
  return presentLink(link);
}

/** DELETE workspaces/{id}/link/ (Admin and above): the active link stops working; 404 when none. */
export async function disableLink(db: Db, { userId, workspaceId }: { userId: number; workspaceId: number }) {
  await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'manage_link' });
  const disabled = await db
    .update(inviteLinks)
    .set({ disabledAt: new Date() })
    .where(and(eq(inviteLinks.workspaceId, workspaceId), isNull(inviteLinks.disabledAt)))
    .returning({ id: inviteLinks.id });
  if (disabled.length === 0) throw new AppError('not_found');
}
