import type { TRole } from '@stageline/shared';
import { expect } from 'vitest';
import { schema } from '../src/db';
import { hashPassword } from '../src/features/auth';
import { bearer, login, password, uniqueUser } from './accounts';
import type { TestApp } from './helpers';

/**
 * Factories of users, workspaces and memberships written straight to the database (Outline's
 * `server/test/factories.ts`): each creates its own parents, so tests isolate by tenant and need
 * neither the mailbox nor the sign-up flow. Users still sign in through the API.
 */

let passwordHash: Promise<string> | undefined;

export type TestUser = {
  id: number;
  username: string;
  email: string;
  tokens: { access: string; refresh: string };
  headers: { authorization: string };
};

/** A verified user, signed in. */
export async function buildUser(
  t: TestApp,
  overrides: { language?: 'en' | 'ru'; firstName?: string; prefix?: string } = {},
): Promise<TestUser> {
  passwordHash ??= hashPassword(password);
  const { username, email } = uniqueUser(overrides.prefix);
  const [row] = await t.database.db
    .insert(schema.users)
    .values({
      username,
      email,
      passwordHash: await passwordHash,
      emailVerified: true,
      language: overrides.language ?? 'en',
      firstName: overrides.firstName ?? '',
    })
    .returning({ id: schema.users.id });
  const response = await login(t.app, username);
  expect(response.statusCode, response.body).toBe(200);
  const tokens = response.json<{ access: string; refresh: string }>();
  return { id: row!.id, username, email, tokens, headers: bearer(tokens) };
}

/** A workspace and its owner's membership (the owner is built when not given). */
export async function buildWorkspace(t: TestApp, { owner, name }: { owner: { id: number }; name?: string }) {
  const [row] = await t.database.db
    .insert(schema.workspaces)
    .values({ name: name ?? `Workspace ${Math.random().toString(36).slice(2, 8)}`, ownerId: owner.id })
    .returning({ id: schema.workspaces.id });
  await t.database.db.insert(schema.memberships).values({ workspaceId: row!.id, userId: owner.id, role: 'owner' });
  return { id: row!.id };
}

/** Makes `user` a member of `workspace` with `role` (invited by a user when `inviter` is given). */
export async function addMember(
  t: TestApp,
  {
    workspace,
    user,
    role,
    inviter,
  }: { workspace: { id: number }; user: { id: number }; role: Exclude<TRole, 'owner'>; inviter?: { id: number } },
) {
  await t.database.db.insert(schema.memberships).values({
    workspaceId: workspace.id,
    userId: user.id,
    role,
    invitedBy: inviter ? 'user' : 'link',
    inviterId: inviter?.id ?? null,
  });
}

export type Team = Awaited<ReturnType<typeof buildTeam>>;

/** A workspace with one user of each role, and an outsider who is in another workspace only. */
export async function buildTeam(t: TestApp) {
  const [owner, admin, member, guest, outsider] = await Promise.all([
    buildUser(t, { prefix: 'owner' }),
    buildUser(t, { prefix: 'admin' }),
    buildUser(t, { prefix: 'member' }),
    buildUser(t, { prefix: 'guest' }),
    buildUser(t, { prefix: 'outsider' }),
  ]);
  const workspace = await buildWorkspace(t, { owner });
  await addMember(t, { workspace, user: admin, role: 'admin', inviter: owner });
  await addMember(t, { workspace, user: member, role: 'member', inviter: owner });
  await addMember(t, { workspace, user: guest, role: 'guest', inviter: admin });
  await buildWorkspace(t, { owner: outsider });
  return { workspace, owner, admin, member, guest, outsider };
}

/** Calls the API as `user` (signed out when null). */
export function as(t: TestApp, user: { headers: { authorization: string } } | null) {
  return (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: user?.headers ?? {} });
}
