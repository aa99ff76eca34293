import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TBulkResult, TWorkspace, TWorkspaceUser } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { addMember, as, buildTeam, buildUser, buildWorkspace } from '../../../test/workspaces';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

async function ownersOf(workspaceId: number) {
  return t.database.db
    .select({ userId: schema.memberships.userId })
    .from(schema.memberships)
    .where(and(eq(schema.memberships.workspaceId, workspaceId), eq(schema.memberships.role, 'owner')));
}

describe('workspaces', () => {
  test('the creator becomes the owner; the list and users/me show it', async () => {
    const user = await buildUser(t, { firstName: 'Ann' });
    const api = as(t, user);
    const created = await api('POST', '/api/workspaces/', { name: '  Studio  ', description: 'Our team' });
    expect(created.statusCode, created.body).toBe(201);
    const workspace = created.json<TWorkspace>();
    expect(workspace).toMatchObject({
      name: 'Studio',
      description: 'Our team',
      role: 'owner',
      members_count: 1,
      owner: { id: user.id, name: 'Ann', username: user.username },
    });
    // What the owner may do travels with the workspace: everything but leave.
    expect(workspace.abilities).toMatchObject({ update: true, invite: true, delete: true, leave: false });
    expect(workspace.abilities.projects).toEqual({ create: true, update: true, delete: true });

    const list = await api('GET', '/api/workspaces/');
    expect(list.json<TWorkspace[]>().map((w) => [w.id, w.role])).toEqual([[workspace.id, 'owner']]);
    const me = await api('GET', '/api/users/me/');
    expect(me.json()).toMatchObject({ workspaces: [workspace.id] });
    expect((await api('GET', `/api/workspaces/${workspace.id}/`)).json()).toEqual(workspace);
  });

  test('create validates the name and needs a session', async () => {
    const user = await buildUser(t);
    const blank = await as(t, user)('POST', '/api/workspaces/', { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ name: ['Field can not be empty'] });
    expect((await as(t, null)('POST', '/api/workspaces/', { name: 'x' })).statusCode).toBe(401);
  });

  test('members read it with their own role; outsiders and unknown ids get 404', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/`;
    for (const [user, role] of [
      [team.admin, 'admin'],
      [team.member, 'member'],
      [team.guest, 'guest'],
    ] as const) {
      const response = await as(t, user)('GET', url);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ role, members_count: 4 });
    }
    expect((await as(t, team.outsider)('GET', url)).statusCode).toBe(404);
    expect((await as(t, team.outsider)('GET', '/api/workspaces/2147483647/')).statusCode).toBe(404);
    expect((await as(t, team.outsider)('GET', '/api/workspaces/abc/')).statusCode).toBe(404);
    const outsiders = await as(t, team.outsider)('GET', '/api/workspaces/');
    expect(outsiders.json<TWorkspace[]>().map((w) => w.id)).not.toContain(team.workspace.id);
  });

  test('Admins and the owner edit it; Members and Guests get 403, outsiders 404', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/`;
    const edited = await as(t, team.admin)('PATCH', url, { description: 'new' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ description: 'new', role: 'admin' });
    expect((await as(t, team.owner)('PATCH', url, { name: 'Renamed' })).json()).toMatchObject({ name: 'Renamed' });
    expect((await as(t, team.member)('PATCH', url, { name: 'x' })).statusCode).toBe(403);
    expect((await as(t, team.guest)('PATCH', url, { name: 'x' })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('PATCH', url, { name: 'x' })).statusCode).toBe(404);
  });

  test('only the owner deletes it; its team goes with it and recent_workspace is cleared', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/`;
    const recent = await as(t, team.member)('PATCH', `/api/users/${team.member.id}/`, {
      recent_workspace: team.workspace.id,
    });
    expect(recent.json()).toMatchObject({ recent_workspace: team.workspace.id });
    const denied = await as(t, team.admin)('DELETE', url);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: 'Access denied', code: 'permission_denied' });
    expect((await as(t, team.member)('DELETE', url)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('DELETE', url)).statusCode).toBe(404);
    expect((await as(t, team.owner)('DELETE', url)).statusCode).toBe(204);
    expect((await as(t, team.owner)('GET', url)).statusCode).toBe(404);
    const me = await as(t, team.member)('GET', '/api/users/me/');
    expect(me.json()).toMatchObject({ recent_workspace: null, workspaces: [] });
    const left = await t.database.db
      .select()
      .from(schema.memberships)
      .where(eq(schema.memberships.workspaceId, team.workspace.id));
    expect(left).toEqual([]);
  });
});

describe('recent_workspace', () => {
  test('must be a workspace the user belongs to', async () => {
    const team = await buildTeam(t);
    const other = await buildWorkspace(t, { owner: team.outsider });
    const api = as(t, team.guest);
    const refused = await api('PATCH', `/api/users/${team.guest.id}/`, { recent_workspace: other.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ recent_workspace: ['You are not a member of this workspace.'] });
    const missing = await api('PATCH', `/api/users/${team.guest.id}/`, { recent_workspace: 2_000_000_000 });
    expect(missing.statusCode).toBe(400);
    const saved = await api('PATCH', `/api/users/${team.guest.id}/`, { recent_workspace: team.workspace.id });
    expect(saved.json()).toMatchObject({ recent_workspace: team.workspace.id });
    const cleared = await api('PATCH', `/api/users/${team.guest.id}/`, { recent_workspace: null });
    expect(cleared.json()).toMatchObject({ recent_workspace: null });
  });
});

describe('team', () => {
  test('lists members with role, status and inviter; e-mails only for those who manage the team', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/users/`;
    const asAdmin = (await as(t, team.admin)('GET', url)).json<TWorkspaceUser[]>();
    expect(asAdmin.map((u) => [u.username, u.role, u.status])).toEqual([
      [team.owner.username, 'owner', 'accepted'],
      [team.admin.username, 'admin', 'accepted'],
      [team.member.username, 'member', 'accepted'],
      [team.guest.username, 'guest', 'accepted'],
    ]);
    expect(asAdmin[0]).toMatchObject({
      invited_by: null,
      inviter_name: null,
      email: team.owner.email,
      invite_id: null,
    });
    expect(asAdmin[3]).toMatchObject({ invited_by: 'user', inviter_name: team.admin.username, user_id: team.guest.id });
    // What the caller may do to each member: an admin manages all but the owner; a guest nobody.
    expect(asAdmin.map((u) => [u.role, u.abilities])).toEqual([
      ['owner', { change_role: false, remove: false }],
      ['admin', { change_role: true, remove: true }],
      ['member', { change_role: true, remove: true }],
      ['guest', { change_role: true, remove: true }],
    ]);
    const asGuest = (await as(t, team.guest)('GET', url)).json<TWorkspaceUser[]>();
    expect(asGuest.every((u) => u.email === null)).toBe(true);
    expect(asGuest.every((u) => !u.abilities.change_role && !u.abilities.remove)).toBe(true);
    expect((await as(t, team.outsider)('GET', url)).statusCode).toBe(404);
    expect((await as(t, null)('GET', url)).statusCode).toBe(401);
  });
});

describe('set_roles', () => {
  test('partial results: the owner is named, strangers and unknown ids alike by number; the rest change', async () => {
    const team = await buildTeam(t);
    const stranger = team.outsider;
    const nobody = 2_000_000_000;
    const response = await as(t, team.admin)('POST', `/api/workspaces/${team.workspace.id}/set_roles/`, {
      users: [team.member.id, team.guest.id, team.owner.id, stranger.id, nobody],
      role: 'admin',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<TBulkResult>()).toEqual({
      succeeded: 2,
      failed: 3,
      errors: [
        { user: team.owner.id, detail: `Can not change role for ${team.owner.username}` },
        // A user outside the workspace is not named: the call must not look names up.
        { user: stranger.id, detail: `Can not change role for user #${stranger.id}` },
        { user: nobody, detail: `Can not change role for user #${nobody}` },
      ],
    });
    const removed = await as(t, team.admin)('POST', `/api/workspaces/${team.workspace.id}/remove_users/`, {
      users: [stranger.id, nobody],
    });
    expect(removed.json<TBulkResult>().errors).toEqual([
      { user: stranger.id, detail: `Can not remove user #${stranger.id}` },
      { user: nobody, detail: `Can not remove user #${nobody}` },
    ]);
    const roles = (await as(t, team.owner)('GET', `/api/workspaces/${team.workspace.id}/users/`)).json<
      TWorkspaceUser[]
    >();
    expect(roles.map((u) => u.role)).toEqual(['owner', 'admin', 'admin', 'admin']);
  });

  test('messages follow Accept-Language; an admin may change their own role', async () => {
    const team = await buildTeam(t);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${team.workspace.id}/set_roles/`,
      payload: { users: [team.owner.id, team.admin.id], role: 'member' },
      headers: { ...team.admin.headers, 'accept-language': 'ru' },
    });
    expect(response.json()).toEqual({
      succeeded: 1,
      failed: 1,
      errors: [{ user: team.owner.id, detail: `Не удалось изменить роль ${team.owner.username}` }],
    });
    // Now a Member, the former admin may no longer change roles.
    const again = await as(t, team.admin)('POST', `/api/workspaces/${team.workspace.id}/set_roles/`, {
      users: [team.guest.id],
      role: 'member',
    });
    expect(again.statusCode).toBe(403);
  });

  test('Members and Guests get 403, outsiders 404; owner is not an assignable role', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/set_roles/`;
    const body = { users: [team.guest.id], role: 'member' };
    expect((await as(t, team.member)('POST', url, body)).statusCode).toBe(403);
    expect((await as(t, team.guest)('POST', url, body)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('POST', url, body)).statusCode).toBe(404);
    const owner = await as(t, team.owner)('POST', url, { users: [team.guest.id], role: 'owner' });
    expect(owner.statusCode).toBe(400);
    expect(owner.json()).toEqual({ role: ['Select a valid choice.'] });
  });
});

describe('remove_users', () => {
  test('partial results; the owner is never removed; an admin may remove themself', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/remove_users/`;
    const response = await as(t, team.admin)('POST', url, {
      users: [team.member.id, team.owner.id, team.admin.id],
    });
    expect(response.json<TBulkResult>()).toEqual({
      succeeded: 2,
      failed: 1,
      errors: [{ user: team.owner.id, detail: `Can not remove ${team.owner.username}` }],
    });
    expect((await as(t, team.member)('GET', `/api/workspaces/${team.workspace.id}/`)).statusCode).toBe(404);
    expect((await as(t, team.admin)('GET', `/api/workspaces/${team.workspace.id}/`)).statusCode).toBe(404);
    const left = (await as(t, team.owner)('GET', `/api/workspaces/${team.workspace.id}/users/`)).json<
      TWorkspaceUser[]
    >();
    expect(left.map((u) => u.user_id)).toEqual([team.owner.id, team.guest.id]);
  });

  test('Members and Guests get 403, outsiders 404', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/remove_users/`;
    expect((await as(t, team.member)('POST', url, { users: [team.guest.id] })).statusCode).toBe(403);
    expect((await as(t, team.guest)('POST', url, { users: [team.guest.id] })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('POST', url, { users: [team.guest.id] })).statusCode).toBe(404);
  });
});

describe('how many workspaces one user owns (MAX_OWNED_WORKSPACES, 10 in tests as by default)', () => {
  const ownLimit = {
    detail: 'You already own 10 workspaces, the most one person may. Delete one or give it to someone else first.',
    code: 'conflict',
  };
  const owned = async (userId: number) =>
    (await t.database.db.select().from(schema.workspaces).where(eq(schema.workspaces.ownerId, userId))).length;

  test('an 11th is refused with a translated 409; deleting one frees a place', async () => {
    const user = await buildUser(t);
    const api = as(t, user);
    // Being a member elsewhere does not count: only what the user owns does.
    await addMember(t, { workspace: await buildWorkspace(t, { owner: await buildUser(t) }), user, role: 'admin' });
    for (let i = 0; i < 9; i++) await buildWorkspace(t, { owner: user });
    const tenth = await api('POST', '/api/workspaces/', { name: 'Tenth' });
    expect(tenth.statusCode, tenth.body).toBe(201);

    const eleventh = await api('POST', '/api/workspaces/', { name: 'Eleventh' });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json()).toEqual(ownLimit);
    const inRussian = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces/',
      headers: { ...user.headers, 'accept-language': 'ru' },
      payload: { name: 'Одиннадцатое' },
    });
    expect(inRussian.statusCode).toBe(409);
    expect(inRussian.json<{ detail: string }>().detail).toBe(
      'Вы уже владеете 10 рабочими пространствами — это наибольшее число для одного человека. Сначала удалите одно из них или передайте его кому-нибудь.',
    );
    expect(await owned(user.id)).toBe(10);

    const { id } = tenth.json<TWorkspace>();
    expect((await api('DELETE', `/api/workspaces/${id}/`)).statusCode).toBe(204);
    expect((await api('POST', '/api/workspaces/', { name: 'Again tenth' })).statusCode).toBe(201);
  });

  test('two creations at once cannot both take the last place', async () => {
    const user = await buildUser(t);
    for (let i = 0; i < 9; i++) await buildWorkspace(t, { owner: user });
    const responses = await Promise.all(
      ['One', 'Two'].map((name) => as(t, user)('POST', '/api/workspaces/', { name })),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await owned(user.id)).toBe(10);
  });

  test('ownership cannot be given to a member who owns 10 already', async () => {
    const team = await buildTeam(t);
    for (let i = 0; i < 10; i++) await buildWorkspace(t, { owner: team.member });
    const response = await as(t, team.owner)('POST', `/api/workspaces/${team.workspace.id}/delegate/`, {
      user: team.member.id,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      detail: 'This member already owns 10 workspaces, the most one person may: they must give one away first.',
      code: 'conflict',
    });
    expect(await ownersOf(team.workspace.id)).toEqual([{ userId: team.owner.id }]);
    expect(await owned(team.member.id)).toBe(10);
  });
});

describe('delegate', () => {
  test('ownership goes to an accepted member; the former owner becomes Admin', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/delegate/`;
    const response = await as(t, team.owner)('POST', url, { user: team.guest.id });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ role: 'admin', owner: { id: team.guest.id } });
    expect((await as(t, team.guest)('GET', `/api/workspaces/${team.workspace.id}/`)).json()).toMatchObject({
      role: 'owner',
    });
    expect(await ownersOf(team.workspace.id)).toEqual([{ userId: team.guest.id }]);
    // The former owner is an Admin now: no delete, no delegation.
    expect((await as(t, team.owner)('DELETE', `/api/workspaces/${team.workspace.id}/`)).statusCode).toBe(403);
    expect((await as(t, team.owner)('POST', url, { user: team.owner.id })).statusCode).toBe(403);
  });

  test('refused to a pending invitee, an outsider or oneself; Admins get 403', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/delegate/`;
    const invited = await as(t, team.owner)('POST', `/api/workspaces/${team.workspace.id}/invite/`, {
      users: [team.outsider.username],
      role: 'admin',
    });
    expect(invited.json()).toMatchObject({ invited: 1 });
    const pending = await as(t, team.owner)('POST', url, { user: team.outsider.id });
    expect(pending.statusCode).toBe(400);
    expect(pending.json()).toEqual({
      detail: 'Ownership can go only to a user who accepted the invite.',
      code: 'bad_request',
    });
    expect((await as(t, team.owner)('POST', url, { user: team.owner.id })).statusCode).toBe(400);
    expect((await as(t, team.admin)('POST', url, { user: team.member.id })).statusCode).toBe(403);
    expect((await as(t, team.member)('POST', url, { user: team.member.id })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('POST', url, { user: team.outsider.id })).statusCode).toBe(404);
    expect(await ownersOf(team.workspace.id)).toEqual([{ userId: team.owner.id }]);
  });

  test('two concurrent delegations leave exactly one owner', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/delegate/`;
    const responses = await Promise.all(
      [team.admin, team.member, team.guest].map((user) => as(t, team.owner)('POST', url, { user: user.id })),
    );
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.every((s) => s === 200 || s === 403 || s === 409)).toBe(true);
    const owners = await ownersOf(team.workspace.id);
    expect(owners).toHaveLength(1);
    const [workspace] = await t.database.db
      .select({ ownerId: schema.workspaces.ownerId })
      .from(schema.workspaces)
      .where(eq(schema.workspaces.id, team.workspace.id));
    expect(workspace!.ownerId).toBe(owners[0]!.userId);
  });

  test('the database refuses a second owner whatever the code does', async () => {
    const team = await buildTeam(t);
    await expect(
      t.database.db
        .update(schema.memberships)
        .set({ role: 'owner' })
        .where(
          and(eq(schema.memberships.workspaceId, team.workspace.id), eq(schema.memberships.userId, team.member.id)),
        ),
    ).rejects.toThrow();
    await expect(addMember(t, { workspace: team.workspace, user: team.member, role: 'guest' })).rejects.toThrow();
  });
});

describe('leave', () => {
  test('anyone but the owner leaves; the owner gets a clear 400', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/leave/`;
    const owner = await as(t, team.owner)('POST', url);
    expect(owner.statusCode).toBe(400);
    expect(owner.json()).toEqual({
      detail: 'The owner cannot leave the workspace. Delegate ownership first.',
      code: 'bad_request',
    });
    for (const user of [team.guest, team.member, team.admin]) {
      expect((await as(t, user)('POST', url)).statusCode).toBe(204);
      expect((await as(t, user)('GET', `/api/workspaces/${team.workspace.id}/`)).statusCode).toBe(404);
    }
    expect((await as(t, team.outsider)('POST', url)).statusCode).toBe(404);
    expect((await as(t, team.guest)('POST', url)).statusCode).toBe(404);
  });
});
