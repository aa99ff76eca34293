import {
  memberAbilities,
  personName,
  workspaceAbilities,
  type TAssignableRole,
  type TRole,
  type TWorkspace,
  type TWorkspaceUser,
} from '@stageline/shared';

export type WorkspaceRow = {
  id: number;
  name: string;
  description: string;
  createdAt: Date;
  role: TRole;
  membersCount: number;
  hoursPerDay: number;
  auditRetentionDays?: number;
  membersShareReviews: boolean;
  owner: { id: number; firstName: string; lastName: string; username: string };
};

/** A workspace as its member sees it, with the caller's role and what it may do (`workspaceAbilities`). */
export function presentWorkspace(row: WorkspaceRow): TWorkspace {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    owner: { id: row.owner.id, name: personName(row.owner), username: row.owner.username },
    role: row.role,
    abilities: workspaceAbilities(row.role),
    members_count: row.membersCount,
    hours_per_day: row.hoursPerDay,
    audit_retention_days: row.auditRetentionDays,
    members_share_reviews: row.membersShareReviews,
    created_at: row.createdAt.toISOString(),
  };
}

type Person = { id: number; firstName: string; lastName: string; username: string; email: string };

/** A member of the team table. E-mails are shown to those who manage the team only. */
export function presentMember(
  row: { role: TRole; invitedBy: string | null; user: Person; inviter: Person | null },
  { showEmail, actorRole }: { showEmail: boolean; actorRole: TRole },
): TWorkspaceUser {
  return {
    user_id: row.user.id,
    invite_id: null,
    name: personName(row.user),
    username: row.user.username,
    email: showEmail ? row.user.email : null,
    role: row.role,
    status: 'accepted',
    inviter_name: row.inviter ? personName(row.inviter) : null,
    invited_by: row.invitedBy === 'link' || row.invitedBy === 'user' ? row.invitedBy : null,
    abilities: memberAbilities(actorRole, row.role),
  };
}

/** `anna@example.com` as `a…@example.com`: enough to recognise an invite, not to mail anyone. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${email.slice(0, 1)}…${email.slice(at)}`;
}

/**
 * A pending direct invite in the team table: to an account, or to an e-mail with none yet. It shows
 * what the inviter typed and nothing more: inviting a username must not reveal that account's
 * e-mail or name (docs/security.md). Invites from before `invited_as` existed show their e-mail.
 */
export function presentPendingInvite(
  row: {
    id: number;
    role: TAssignableRole;
    email: string | null;
    invitedAs: string | null;
    userId: number | null;
    inviter: Person | null;
  },
  { showEmail }: { showEmail: boolean },
): TWorkspaceUser {
  const typed = row.invitedAs ?? row.email ?? '';
  const typedEmail = typed.includes('@');
  return {
    user_id: row.userId,
    invite_id: row.id,
    name: typedEmail && !showEmail ? maskEmail(typed) : typed,
    username: typedEmail ? null : typed,
    email: typedEmail && showEmail ? typed : null,
    role: row.role,
    status: 'pending',
    inviter_name: row.inviter ? personName(row.inviter) : null,
    invited_by: 'user',
    abilities: { change_role: false, remove: false },
  };
}
