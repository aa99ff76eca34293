import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { DefaultTeamColor, personName, type TTeam, type TTeamCreate, type TTeamPatch } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { actorIn, authorize, authorizeIn, type Actor } from '../workspaces';

const { teams, teamMembers, memberships, users } = schema;

export const TeamMessages = {
  nameTaken: 'A team with this name already exists in the workspace.',
  notAMember: 'Only members of the workspace can be chosen.',
  notATeam: 'Only teams of the workspace can be chosen.',
} as const;

type TeamRow = typeof teams.$inferSelect;

/** Teams with their members (current members of the workspace only), by name. */
async function present(db: Db, rows: TeamRow[]): Promise<TTeam[]> {
  if (rows.length === 0) return [];
  const members = await db
    .select({
      teamId: teamMembers.teamId,
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.workspaceId, teams.workspaceId)))
    .where(
      inArray(
        teamMembers.teamId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(users.username));
  return rows.map((row) => ({
    id: row.id,
    workspace: row.workspaceId,
    name: row.name,
    color: row.color,
    members: members
      .filter((m) => m.teamId === row.id)
      .map((m) => ({ id: m.id, name: personName(m), username: m.username })),
    created_at: row.createdAt.toISOString(),
  }));
}

/** A team and the caller in its workspace: 404 for a team of a workspace the caller is not in. */
async function teamOf(db: Db, { userId, teamId }: { userId: number; teamId: number }): Promise<[TeamRow, Actor]> {
  const [row] = await db.select().from(teams).where(eq(teams.id, teamId));
  if (!row) throw new AppError('not_found');
  return [row, await actorIn(db, userId, row.workspaceId)];
}

async function assertNameFree(db: Db, workspaceId: number, name: string, except?: number): Promise<void> {
  const [taken] = await db
    .select({ id: teams.id })
    .from(teams)
    .where(
      and(
        eq(teams.workspaceId, workspaceId),
        sql`lower(${teams.name}) = lower(${name})`,
        except === undefined ? undefined : sql`${teams.id} <> ${except}`,
      ),
    );
  if (taken) throw new FieldError({ name: [TeamMessages.nameTaken] });
}

/** GET workspaces/{id}/teams/ (every role: people pick teams as reviewers). */
export async function listTeams(db: Db, { userId, workspaceId }: { userId: number; workspaceId: number }) {
  await authorizeIn(db, { userId, workspaceId, resource: 'team', action: 'view' });
  return present(
    db,
    await db.select().from(teams).where(eq(teams.workspaceId, workspaceId)).orderBy(asc(teams.name), asc(teams.id)),
  );
}

/** POST workspaces/{id}/teams/ (Admin and above). */
export async function createTeam(
  db: Db,
  { userId, workspaceId, input }: { userId: number; workspaceId: number; input: TTeamCreate },
): Promise<TTeam> {
  await authorizeIn(db, { userId, workspaceId, resource: 'team', action: 'manage' });
  await assertNameFree(db, workspaceId, input.name);
  const [row] = await db
    .insert(teams)
    .values({ workspaceId, name: input.name, color: input.color ?? DefaultTeamColor })
    .returning();
  return (await present(db, [row!]))[0]!;
}

/** GET teams/{id}/. */
export async function getTeam(db: Db, { userId, teamId }: { userId: number; teamId: number }): Promise<TTeam> {
  const [row, actor] = await teamOf(db, { userId, teamId });
  authorize(actor, 'team', 'view');
  return (await present(db, [row]))[0]!;
}

/** PATCH teams/{id}/ (Admin and above). */
export async function updateTeam(
  db: Db,
  { userId, teamId, patch }: { userId: number; teamId: number; patch: TTeamPatch },
): Promise<TTeam> {
  const [row, actor] = await teamOf(db, { userId, teamId });
  authorize(actor, 'team', 'manage');
  if (patch.name !== undefined) await assertNameFree(db, row.workspaceId, patch.name, row.id);
  const [updated] = await db
    .update(teams)
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.color !== undefined ? { color: patch.color } : {}),
      updatedAt: new Date(),
    })
    .where(eq(teams.id, teamId))
    .returning();
  return (await present(db, [updated!]))[0]!;
}

/**
 * DELETE teams/{id}/ (Admin and above). Its links to stages and tasks and its rules go with it
 * (cascade): a stage that named it as reviewer no longer does.
 */
export async function deleteTeam(db: Db, { userId, teamId }: { userId: number; teamId: number }): Promise<void> {
  const [, actor] = await teamOf(db, { userId, teamId });
  authorize(actor, 'team', 'manage');
  await db.delete(teams).where(eq(teams.id, teamId));
}

/** POST teams/{id}/members/ (Admin and above): members of the workspace only; already there is fine. */
export async function addTeamMembers(
  db: Db,
  { userId, teamId, users: ids }: { userId: number; teamId: number; users: number[] },
): Promise<TTeam> {
  const [row, actor] = await teamOf(db, { userId, teamId });
  authorize(actor, 'team', 'manage');
  const wanted = [...new Set(ids)];
  const found = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, row.workspaceId), inArray(memberships.userId, wanted)));
  if (found.length !== wanted.length) throw new FieldError({ users: [TeamMessages.notAMember] });
  await db
    .insert(teamMembers)
    .values(wanted.map((id) => ({ teamId, userId: id })))
    .onConflictDoNothing();
  return (await present(db, [row]))[0]!;
}

/** DELETE teams/{id}/members/{user}/ (Admin and above); someone not in the team: 404. */
export async function removeTeamMember(
  db: Db,
  { userId, teamId, memberId }: { userId: number; teamId: number; memberId: number },
): Promise<void> {
  const [, actor] = await teamOf(db, { userId, teamId });
  authorize(actor, 'team', 'manage');
  const removed = await db
    .delete(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, memberId)))
    .returning({ userId: teamMembers.userId });
  if (removed.length === 0) throw new AppError('not_found');
}

/**
 * Teams named by a request must be teams of the workspace: a field error names each field with
 * another id in it (`default_reviewer_teams`, `team_rules`…).
 */
export async function assertTeams(
  db: Db,
  workspaceId: number,
  fields: { field: string; ids: readonly number[] | undefined }[],
): Promise<void> {
  const wanted = [...new Set(fields.flatMap((f) => f.ids ?? []))];
  if (wanted.length === 0) return;
  const rows = await db
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.workspaceId, workspaceId), inArray(teams.id, wanted)));
  const known = new Set(rows.map((r) => r.id));
  const errors: Record<string, string[]> = {};
  for (const { field, ids } of fields) if (ids?.some((id) => !known.has(id))) errors[field] = [TeamMessages.notATeam];
  if (Object.keys(errors).length > 0) throw new FieldError(errors);
}

/** Teams as other records name them, by id. */
export async function teamRefs(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, { id: number; name: string; color: string }>();
  const rows = await db
    .select({ id: teams.id, name: teams.name, color: teams.color })
    .from(teams)
    .where(inArray(teams.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}
