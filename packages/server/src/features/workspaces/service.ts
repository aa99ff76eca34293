// Long because a workspace's membership changes (roles, removals, ownership) each write their audit entry in their own transaction (docs/history-and-audit.md); invites live in invites.ts.
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  checkRemoval,
  checkRoleChange,
  personName,
  type TAssignableRole,
  type TBulkResult,
  type TWorkspace,
  type TWorkspaceCreate,
  type TWorkspaceUser,
} from '@stageline/shared';
import type { TFunction } from 'i18next';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { recordAudit } from '../audit';
import { emitWebhookEvents } from '../events';
import { actorIn, authorizeIn } from './policy';
import { presentMember, presentPendingInvite, presentWorkspace } from './presenter';

const { workspaces, memberships, users, invites } = schema;

const owners = alias(users, 'owner');

const ownLimitDetail =
  'You already own {{max}} workspaces, the most one person may. Delete one or give it to someone else first.';
const theirLimitDetail =
  'This member already owns {{max}} workspaces, the most one person may: they must give one away first.';

/** Workspaces of `userId` with their role, owner and head count; one workspace when `workspaceId` is given. */
async function selectWorkspaces(db: Db, { userId, workspaceId }: { userId: number; workspaceId?: number }) {
  const rows = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      description: workspaces.description,
      createdAt: workspaces.createdAt,
      hoursPerDay: workspaces.hoursPerDay,
      auditRetentionDays: workspaces.auditRetentionDays,
      membersShareReviews: workspaces.membersShareReviews,
      role: memberships.role,
      membersCount: sql<number>`(select count(*)::int from ${memberships} m where m.workspace_id = ${workspaces.id})`,
      owner: { id: owners.id, firstName: owners.firstName, lastName: owners.lastName, username: owners.username },
    })
    .from(workspaces)
    .innerJoin(memberships, and(eq(memberships.workspaceId, workspaces.id), eq(memberships.userId, userId)))
    .innerJoin(owners, eq(owners.id, workspaces.ownerId))
    .where(workspaceId === undefined ? undefined : eq(workspaces.id, workspaceId))
    .orderBy(asc(sql`lower(${workspaces.name})`), asc(workspaces.id));
  return rows.map((row) => presentWorkspace({ ...row, role: row.role, membersCount: Number(row.membersCount) }));
}

/** One workspace as `userId` sees it; 404 when they are not in it. */
export async function getWorkspace(db: Db, { userId, workspaceId }: { userId: number; workspaceId: number }) {
  const [workspace] = await selectWorkspaces(db, { userId, workspaceId });
  if (!workspace) throw new AppError('not_found');
  return workspace;
}

/** GET workspaces/: the caller's workspaces with their role. */
export async function listWorkspaces(db: Db, userId: number): Promise<TWorkspace[]> {
  return selectWorkspaces(db, { userId });
}

/**
 * Refuses (409) to make `userId` the owner of one more workspace when they own `maxOwned` already
 * (MAX_OWNED_WORKSPACES): the file quota is per workspace and must not be multiplied (docs/security.md).
 * Locks the user's row first, so two transactions cannot both pass with the last free place.
 */
async function assertMayOwnAnother(
  tx: Db,
  { userId, maxOwned, detail }: { userId: number; maxOwned: number; detail: string },
): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  const [row] = await tx.select({ owned: count() }).from(workspaces).where(eq(workspaces.ownerId, userId));
  if ((row?.owned ?? 0) >= maxOwned) throw new AppError('conflict', detail, { max: maxOwned });
}

/**
 * POST workspaces/: the creator becomes its owner, in the same transaction. `maxOwned` caps the
 * workspaces one user owns (the API passes MAX_OWNED_WORKSPACES; the demo seed passes none).
 */
export async function createWorkspace(
  db: Db,
  { userId, input, maxOwned }: { userId: number; input: TWorkspaceCreate; maxOwned?: number },
) {
  const id = await db.transaction(async (tx) => {
    if (maxOwned !== undefined) {
      await assertMayOwnAnother(tx, { userId, maxOwned, detail: ownLimitDetail });
    }
    const [row] = await tx
      .insert(workspaces)
      .values({ name: input.name, description: input.description ?? '', ownerId: userId })
      .returning({ id: workspaces.id });
    await tx.insert(memberships).values({ workspaceId: row!.id, userId, role: 'owner', invitedBy: null });
    return row!.id;
  });
  return getWorkspace(db, { userId, workspaceId: id });
}

/** PATCH workspaces/{id}/ (Admin and above). */
export async function updateWorkspace(
  db: Db,
  {
    userId,
    workspaceId,
    patch,
  }: {
    userId: number;
    workspaceId: number;
    patch: Partial<TWorkspaceCreate> & {
      hours_per_day?: number;
      audit_retention_days?: number;
      members_share_reviews?: boolean;
    };
  },
) {
  await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'update' });
  const changes = Object.fromEntries(
    Object.entries({
      name: patch.name,
      description: patch.description,
      hoursPerDay: patch.hours_per_day,
      auditRetentionDays: patch.audit_retention_days,
      membersShareReviews: patch.members_share_reviews,
    }).filter(([, v]) => v !== undefined),
  );
  if (Object.keys(changes).length > 0) {
    await db.transaction(async (tx) => {
      const [before] = await tx.select().from(workspaces).where(eq(workspaces.id, workspaceId)).for('update');
      await tx
        .update(workspaces)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(workspaces.id, workspaceId));
      // Old → new of each setting that changed (the audit log's "settings changed", docs/history-and-audit.md).
      const changed = Object.fromEntries(
        Object.entries(changes)
          .filter(([key, value]) => before?.[key as keyof typeof before] !== value)
          .map(([key, value]) => [key, { from: before?.[key as keyof typeof before] ?? null, to: value }]),
      );
      if (Object.keys(changed).length > 0) {
        await recordAudit(tx, workspaceId, {
          action: 'workspace.settings_changed',
          actorId: userId,
          target: { kind: 'workspace', id: workspaceId, name: patch.name ?? before?.name ?? null },
          details: changed,
        });
      }
    });
  }
  return getWorkspace(db, { userId, workspaceId });
}

/** DELETE workspaces/{id}/ (the owner only); memberships, invites and links go with it. */
export async function deleteWorkspace(db: Db, { userId, workspaceId }: { userId: number; workspaceId: number }) {
  await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'delete' });
  await db.delete(workspaces).where(eq(workspaces.id, workspaceId));
}

/** A user's username, for the name an audit entry keeps. */
async function usernameOf(db: Db, userId: number): Promise<string | null> {
  const [row] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  return row?.username ?? null;
}

const inviters = alias(users, 'inviter');
/** GET workspaces/{id}/users/: members first (by role, then name), then pending direct invites. */
export async function listTeam(
  db: Db,
  { userId, workspaceId }: { userId: number; workspaceId: number },
): Promise<TWorkspaceUser[]> {
  const actor = await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'view' });
  const showEmail = actor.role === 'admin' || actor.role === 'owner';
  const members = await db
    .select({
      role: memberships.role,
      invitedBy: memberships.invitedBy,
      user: {
        id: users.id,
        firstName: users.firstName,
        lastName: users.lastName,
        username: users.username,
        email: users.email,
      },
      inviter: {
        id: inviters.id,
        firstName: inviters.firstName,
        lastName: inviters.lastName,
        username: inviters.username,
        email: inviters.email,
      },
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(inviters, eq(inviters.id, memberships.inviterId))
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(
      sql`case ${memberships.role} when 'owner' then 0 when 'admin' then 1 when 'member' then 2 else 3 end`,
      asc(sql`lower(${users.username})`),
    );
  const pending = await db
    .select({
      id: invites.id,
      role: invites.role,
      email: invites.email,
      invitedAs: invites.invitedAs,
      userId: invites.userId,
      inviter: {
        id: inviters.id,
        firstName: inviters.firstName,
        lastName: inviters.lastName,
        username: inviters.username,
        email: inviters.email,
      },
    })
    .from(invites)
    .leftJoin(inviters, eq(inviters.id, invites.inviterId))
    .where(and(eq(invites.workspaceId, workspaceId), eq(invites.status, 'pending')))
    .orderBy(asc(invites.createdAt), asc(invites.id));
  return [
    ...members.map((row) => presentMember({ ...row, role: row.role }, { showEmail, actorRole: actor.role })),
    ...pending.map((row) => presentPendingInvite({ ...row, role: row.role }, { showEmail })),
  ];
}

/**
 * How the per-user messages of a bulk action name its targets: members of the workspace by name,
 * pending invitees by what their inviter typed, anyone else — another workspace's user or an id
 * nobody has — alike, by the number sent, so the call cannot be used to look names up
 * (docs/security.md).
 */
async function namesOf(db: Db, workspaceId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const members = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), inArray(memberships.userId, ids)));
  const invitees = await db
    .select({ id: invites.userId, invitedAs: invites.invitedAs })
    .from(invites)
    .where(and(eq(invites.workspaceId, workspaceId), eq(invites.status, 'pending'), inArray(invites.userId, ids)));
  const names = new Map<number, string>();
  for (const row of invitees) if (row.id !== null && row.invitedAs) names.set(row.id, row.invitedAs);
  for (const row of members) names.set(row.id, personName(row));
  return names;
}

type BulkOptions = { userId: number; workspaceId: number; targets: number[]; t: TFunction };

/**
 * Applies `apply` to each distinct target and reports per-user failures with `message` (docs/rules.md
 * §Web: bulk actions report how many succeeded and how many failed).
 */
async function bulk(
  db: Db,
  options: BulkOptions,
  message: string,
  apply: (target: number) => Promise<boolean>,
): Promise<TBulkResult> {
  const { targets, t } = options;
  const distinct = [...new Set(targets)];
  const names = await namesOf(db, options.workspaceId, distinct);
  const result: TBulkResult = { succeeded: 0, failed: 0, errors: [] };
  for (const target of distinct) {
    if (await apply(target)) {
      result.succeeded += 1;
    } else {
      result.failed += 1;
      const user = names.get(target) ?? t('user #{{id}}', { id: target });
      result.errors.push({ user: target, detail: t(message, { user }) });
    }
  }
  return result;
}

/**
 * POST workspaces/{id}/set_roles/ (Admin and above): the owner's role never changes this way
 * (`checkRoleChange`); a pending invitee's offered role changes instead.
 */
export async function setRoles(db: Db, options: BulkOptions & { role: TAssignableRole }): Promise<TBulkResult> {
  const { userId, workspaceId, role } = options;
  const actor = await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'change_roles' });
  return bulk(db, options, 'Can not change role for {{user}}', async (target) => {
    const member = await actorIn(db, target, workspaceId).catch(() => undefined);
    if (member) {
      if (checkRoleChange(actor.role, member.role, role)) return false;
      if (member.role === role) return true;
      // The condition on the old role makes a concurrent delegation win: the owner is never demoted here.
      return db.transaction(async (tx) => {
        const updated = await tx
          .update(memberships)
          .set({ role })
          .where(
            and(
              eq(memberships.workspaceId, workspaceId),
              eq(memberships.userId, target),
              ne(memberships.role, 'owner'),
            ),
          )
          .returning({ id: memberships.id });
        if (updated.length === 0) return false;
        await recordAudit(tx, workspaceId, {
          action: 'member.role_changed',
          actorId: userId,
          target: { kind: 'user', id: target, name: await usernameOf(tx, target) },
          details: { from: member.role, to: role },
        });
        return true;
      });
    }
    const updated = await db
      .update(invites)
      .set({ role })
      .where(and(eq(invites.workspaceId, workspaceId), eq(invites.userId, target), eq(invites.status, 'pending')))
      .returning({ id: invites.id });
    return updated.length > 0;
  });
}

/**
 * Drops a membership and forgets the workspace as the user's recent one; the `member.removed`
 * webhook event says who left and who removed them.
 */
async function dropMembership(
  db: Db,
  { workspaceId, userId, actorId }: { workspaceId: number; userId: number; actorId: number },
) {
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(memberships)
      .where(
        and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId), ne(memberships.role, 'owner')),
      )
      .returning({ id: memberships.id, role: memberships.role });
    if (removed.length === 0) return false;
    const [gone] = await tx.select({ username: users.username }).from(users).where(eq(users.id, userId));
    await recordAudit(tx, workspaceId, {
      action: actorId === userId ? 'member.left' : 'member.removed',
      actorId,
      target: { kind: 'user', id: userId, name: gone?.username ?? null },
      details: { role: removed[0]!.role },
    });
    await emitWebhookEvents(tx, workspaceId, [
      {
        event: 'member.removed',
        data: { user: { id: userId, username: gone?.username ?? null }, role: removed[0]!.role, actor: actorId },
      },
    ]);
    await tx
      .update(users)
      .set({ recentWorkspaceId: null })
      .where(and(eq(users.id, userId), eq(users.recentWorkspaceId, workspaceId)));
    return true;
  });
}

/**
 * POST workspaces/{id}/remove_users/ (Admin and above): never the owner (`checkRemoval`); an admin
 * may remove themself (the client asks for confirmation). A pending invitee's invite is cancelled.
 */
export async function removeUsers(db: Db, options: BulkOptions): Promise<TBulkResult> {
  const { userId, workspaceId } = options;
  const actor = await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'remove_users' });
  return bulk(db, options, 'Can not remove {{user}}', async (target) => {
    const member = await actorIn(db, target, workspaceId).catch(() => undefined);
    if (member) {
      if (checkRemoval(actor.role, member.role)) return false;
      return dropMembership(db, { workspaceId, userId: target, actorId: userId });
    }
    return db.transaction(async (tx) => {
      const cancelled = await tx
        .update(invites)
        .set({ status: 'cancelled', respondedAt: new Date() })
        .where(and(eq(invites.workspaceId, workspaceId), eq(invites.userId, target), eq(invites.status, 'pending')))
        .returning({ id: invites.id, invitedAs: invites.invitedAs });
      if (cancelled.length === 0) return false;
      await recordAudit(tx, workspaceId, {
        action: 'member.invite_cancelled',
        actorId: userId,
        target: { kind: 'invite', id: cancelled[0]!.id, name: cancelled[0]!.invitedAs },
      });
      return true;
    });
  });
}

/**
 * POST workspaces/{id}/delegate/ (the owner only): ownership goes to a member who accepted, the
 * former owner becomes Admin. One transaction, demotion first, so the one-owner index holds at every
 * statement; a concurrent delegation finds no owner to demote and is refused.
 */
export async function delegateOwnership(
  db: Db,
  { userId, workspaceId, target, maxOwned }: { userId: number; workspaceId: number; target: number; maxOwned: number },
) {
  await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'delegate' });
  if (target === userId) throw new AppError('bad_request', 'You already own this workspace.');
  const member = await actorIn(db, target, workspaceId).catch(() => undefined);
  if (!member) throw new AppError('bad_request', 'Ownership can go only to a user who accepted the invite.');
  await db.transaction(async (tx) => {
    await assertMayOwnAnother(tx, { userId: target, maxOwned, detail: theirLimitDetail });
    const demoted = await tx
      .update(memberships)
      .set({ role: 'admin' })
      .where(
        and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId), eq(memberships.role, 'owner')),
      )
      .returning({ id: memberships.id });
    if (demoted.length === 0) throw new AppError('conflict');
    const promoted = await tx
      .update(memberships)
      .set({ role: 'owner' })
      .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, target)))
      .returning({ id: memberships.id });
    if (promoted.length === 0) throw new AppError('conflict');
    await tx.update(workspaces).set({ ownerId: target, updatedAt: new Date() }).where(eq(workspaces.id, workspaceId));
    await recordAudit(tx, workspaceId, {
      action: 'workspace.ownership_moved',
      actorId: userId,
      target: { kind: 'user', id: target, name: await usernameOf(tx, target) },
      details: { from: userId, to: target },
    });
  });
  return getWorkspace(db, { userId, workspaceId });
}

/** POST workspaces/{id}/leave/: anyone but the owner, who must delegate first. */
export async function leaveWorkspace(db: Db, { userId, workspaceId }: { userId: number; workspaceId: number }) {
  const actor = await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'leave' });
  if (actor.role === 'owner') {
    throw new AppError('bad_request', 'The owner cannot leave the workspace. Delegate ownership first.');
  }
  if (!(await dropMembership(db, { workspaceId, userId, actorId: userId }))) throw new AppError('conflict');
}

/** The ids of the workspaces a user belongs to (users/me `workspaces`). */
export async function workspaceIdsOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .select({ id: memberships.workspaceId })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.workspaceId));
  return rows.map((row) => row.id);
}
