import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { can, Roles, type TAction, type TResource, type TRole } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';

/**
 * The one server module that decides permissions (docs/rules.md §Roles). Every route of a
 * workspace's records asks it: first `actorIn` (who is the caller in that workspace: a non-member
 * gets 404, so ids do not leak), then `authorize` (403 for a member without the right). The table
 * itself is `Permissions` in `@stageline/shared`; this module only applies it.
 */

/** The caller as a member of one workspace. */
export type Actor = { userId: number; workspaceId: number; role: TRole };

const isRole = (value: string): value is TRole => (Roles as readonly string[]).includes(value);

/** The membership of a user in a workspace, or undefined when they are not in it. */
export async function membershipOf(
  db: Db,
  { userId, workspaceId }: { userId: number; workspaceId: number },
): Promise<Actor | undefined> {
  const [row] = await db
    .select({ role: schema.memberships.role })
    .from(schema.memberships)
    .where(and(eq(schema.memberships.workspaceId, workspaceId), eq(schema.memberships.userId, userId)));
  if (!row || !isRole(row.role)) return undefined;
  return { userId, workspaceId, role: row.role };
}

/**
 * The caller in the workspace of a record: 404 when the workspace does not exist or the caller is not
 * in it. Later features pass the workspace of the project, pipeline or task they load.
 */
export async function actorIn(db: Db, userId: number, workspaceId: number): Promise<Actor> {
  const actor = await membershipOf(db, { userId, workspaceId });
  if (!actor) throw new AppError('not_found');
  return actor;
}

/** Throws 403 unless the actor's role may do `action` on a record of `resource`. */
export function authorize<R extends TResource>(actor: Actor, resource: R, action: TAction<R>): void {
  if (!can(actor.role, resource, action)) throw new AppError('permission_denied');
}

/** `actorIn` then `authorize`: the usual first line of a route's service. */
export async function authorizeIn<R extends TResource>(
  db: Db,
  { userId, workspaceId, resource, action }: { userId: number; workspaceId: number; resource: R; action: TAction<R> },
): Promise<Actor> {
  const actor = await actorIn(db, userId, workspaceId);
  authorize(actor, resource, action);
  return actor;
}

/**
 * The tenant condition for list queries: `column` (a `workspace_id`) is one of the user's
 * workspaces. Every list of workspace records adds it, so no query can return another tenant's rows.
 */
export function inWorkspacesOf(userId: number, column: AnyPgColumn): SQL {
  // A subquery, not a join: it cannot multiply the rows of the list.
  return sql`${column} in (select ${schema.memberships.workspaceId} from ${schema.memberships} where ${schema.memberships.userId} = ${userId})`;
}
