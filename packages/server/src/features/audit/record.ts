import { sql } from 'drizzle-orm';
import type { TAuditAction, TAuditTargetKind } from '@stageline/shared/audit';
import type { Db } from '../../db';
import { currentClient } from './scope';

/** What an entry is about: a kind, its id and its name as it was (the record may go later). */
export type AuditTarget = { kind: TAuditTargetKind; id?: number | null; name?: string | null };

export type AuditEntry = {
  action: TAuditAction;
  /** Who did it: a user id, or null (nobody signed in). */
  actorId: number | null;
  target?: AuditTarget;
  details?: Record<string, unknown>;
};

/** The actor's username as it is now, kept in the entry (an entry outlives its account). */
const actorUsernameOf = (actorId: number | null) =>
  actorId === null ? sql`null` : sql`(select u.username from users u where u.id = ${actorId})`;

const targetColumns = (target: AuditTarget | undefined) => ({
  kind: target?.kind ?? null,
  id: target?.id ?? null,
  name: target?.name?.slice(0, 300) ?? null,
});

/**
 * Writes one entry of a workspace's audit log with `db`: pass the transaction of the change, so an
 * entry is written exactly when the change commits. Address and user agent come from the request
 * being served (`registerAuditScope`). One statement.
 */
export async function recordAudit(db: Db, workspaceId: number, entry: AuditEntry): Promise<void> {
  const client = currentClient();
  const target = targetColumns(entry.target);
  await db.execute(sql`
    insert into audit_log (workspace_id, actor_id, actor_username, action, target_kind, target_id, target_name, ip, user_agent, details)
    values (${workspaceId}, ${entry.actorId}, ${actorUsernameOf(entry.actorId)}, ${entry.action}, ${target.kind},
      ${target.id}, ${target.name}, ${client.ip}, ${client.userAgent}, ${JSON.stringify(entry.details ?? {})}::jsonb)`);
}

/**
 * Writes an account's entry (a sign-in, a password change, an API token…): these happen outside any
 * workspace, so one entry goes to each workspace the account belongs to (decision 221), in one
 * statement. An account in no workspace leaves no entry.
 */
export async function recordAccountAudit(db: Db, userId: number, entry: AuditEntry): Promise<void> {
  const client = currentClient();
  const target = targetColumns(entry.target ?? { kind: 'user', id: userId });
  await db.execute(sql`
    insert into audit_log (workspace_id, actor_id, actor_username, action, target_kind, target_id, target_name, ip, user_agent, details)
    select m.workspace_id, ${entry.actorId}, ${actorUsernameOf(entry.actorId)}, ${entry.action}, ${target.kind},
      ${target.id}, ${target.name}, ${client.ip}, ${client.userAgent}, ${JSON.stringify(entry.details ?? {})}::jsonb
    from memberships m where m.user_id = ${userId}`);
}

/**
 * An export (a CSV file, a file downloaded): in its workspace's log when it came from one, else in
 * every workspace of the person (a task list of all their workspaces).
 */
export async function recordExport(
  db: Db,
  {
    userId,
    workspaceId,
    action = 'export.csv',
    target,
    details,
  }: {
    userId: number;
    workspaceId?: number | null;
    action?: 'export.csv' | 'export.file';
    target?: AuditTarget;
    details: Record<string, unknown>;
  },
): Promise<void> {
  const entry: AuditEntry = { action, actorId: userId, target, details };
  if (workspaceId === undefined || workspaceId === null) await recordAccountAudit(db, userId, entry);
  else await recordAudit(db, workspaceId, entry);
}
