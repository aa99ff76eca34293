import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TPendingInvite, TWorkspaceUser } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits, signUp, uniqueUser } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { startMailbox, type Mailbox } from '../../../test/mailbox';
import { as, buildTeam, buildUser, type Team } from '../../../test/workspaces';

let t: TestApp;
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await startMailbox();
  t = await buildTestApp({ config: { smtpUrl: mailbox.url }, authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
  await mailbox?.close();
});

/** The personal-link token of the next invite mail to `email`. */
async function inviteToken(email: string): Promise<{ token: string; subject: string; text: string }> {
  const mail = await mailbox.waitFor(email, (m) => /\/p\/[\w-]+/.test(m.text));
  return { token: /\/p\/([\w-]+)/.exec(mail.text)![1]!, subject: mail.subject, text: mail.text };
}

const invite = (team: Team, users: string[], role = 'member', by = team.admin) =>
  as(t, by)('POST', `/api/workspaces/${team.workspace.id}/invite/`, { users, role });

async function membership(workspaceId: number, userId: number) {
  const [row] = await t.database.db
    .select()
    .from(schema.memberships)
    .where(and(eq(schema.memberships.workspaceId, workspaceId), eq(schema.memberships.userId, userId)));
  return row;
}

describe('direct invites', () => {
  test('by username and e-mail, with per-entry failures; mails in the invitee language', async () => {
    const team = await buildTeam(t);
    const russian = await buildUser(t, { language: 'ru' });
    const stranger = uniqueUser('nobody').email;
    const response = await invite(team, [russian.username, 'no-such-user', team.member.username, stranger], 'guest');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      invited: 2,
      failed: 2,
      errors: [
        { user: 'no-such-user', detail: 'User no-such-user was not found.' },
        { user: team.member.username, detail: `${team.member.username} is already a member of the workspace.` },
      ],
    });
    const ru = await inviteToken(russian.email);
    expect(ru.subject).toContain('приглашает вас');
    expect(ru.text).toContain('«Гость»');
    const en = await inviteToken(stranger);
    expect(en.subject).toContain('invited you to');

    const again = await invite(team, [russian.email.toUpperCase(), stranger]);
    expect(again.json()).toMatchObject({ invited: 0, failed: 2 });

    const list = (await as(t, team.admin)('GET', `/api/workspaces/${team.workspace.id}/users/`)).json<
      TWorkspaceUser[]
    >();
    const pending = list.filter((u) => u.status === 'pending');
    expect(pending).toEqual([
      // Invited by username: the row shows the username typed, never the account's e-mail or name.
      expect.objectContaining({
        user_id: russian.id,
        name: russian.username,
        username: russian.username,
        email: null,
        role: 'guest',
        inviter_name: team.admin.username,
      }),
      expect.objectContaining({ user_id: null, name: stranger, email: stranger, username: null }),
    ]);
    expect(pending.every((u) => u.invite_id !== null && u.invited_by === 'user')).toBe(true);
    expect(JSON.stringify(list)).not.toContain(russian.email);

    // A Member sees neither address: the e-mail invite's name is masked.
    const seenByMember = (await as(t, team.member)('GET', `/api/workspaces/${team.workspace.id}/users/`)).json<
      TWorkspaceUser[]
    >();
    const strangerRow = seenByMember.find((u) => u.status === 'pending' && u.user_id === null)!;
    expect(strangerRow).toMatchObject({ email: null, name: `${stranger[0]}…@example.com` });
    expect(JSON.stringify(seenByMember)).not.toContain(stranger);
  });

  test('one overlong or invalid entry fails alone and is named; the valid ones are invited (decision 196)', async () => {
    const team = await buildTeam(t);
    const friend = await buildUser(t);
    const long = `${'x'.repeat(600)}@example.com`;
    const response = await invite(team, [long, friend.username, 'not an address@', uniqueUser('new').email]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      invited: 2,
      failed: 2,
      errors: [
        { user: long, detail: 'Not a username or an e-mail: too long.' },
        { user: 'not an address@', detail: 'Not a valid e-mail address.' },
      ],
    });
    const ru = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${team.workspace.id}/invite/`,
      payload: { users: ['y'.repeat(300)], role: 'member' },
      headers: { ...team.admin.headers, 'accept-language': 'ru' },
    });
    expect(ru.json()).toMatchObject({
      invited: 0,
      errors: [{ detail: 'Это не имя пользователя и не e-mail: слишком длинно.' }],
    });
    // Past the request's own bound (2,000 characters an entry) it is a field error naming the entry.
    const huge = await invite(team, ['z'.repeat(2_001), friend.email]);
    expect(huge.statusCode).toBe(400);
    expect(Object.keys(huge.json<Record<string, unknown>>())).toEqual(['users.0']);
  });

  test('the invitee sees it, accepts by id and joins with the role', async () => {
    const team = await buildTeam(t);
    const invitee = await buildUser(t);
    await invite(team, [invitee.username], 'admin');
    const mine = await as(t, invitee)('GET', '/api/invites/');
    const [pending] = mine.json<TPendingInvite[]>();
    expect(pending).toMatchObject({
      workspace: { id: team.workspace.id },
      role: 'admin',
      inviter_name: team.admin.username,
    });
    // Nobody else can use that id.
    expect((await as(t, team.outsider)('POST', `/api/invites/${pending!.id}/accept/`)).statusCode).toBe(404);
    const accepted = await as(t, invitee)('POST', `/api/invites/${pending!.id}/accept/`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ id: team.workspace.id, role: 'admin' });
    expect(await membership(team.workspace.id, invitee.id)).toMatchObject({
      role: 'admin',
      invitedBy: 'user',
      inviterId: team.admin.id,
    });
    expect((await as(t, invitee)('GET', '/api/invites/')).json()).toEqual([]);
    expect((await as(t, invitee)('POST', `/api/invites/${pending!.id}/accept/`)).statusCode).toBe(404);
  });

  test('Members and Guests cannot invite; outsiders get 404', async () => {
    const team = await buildTeam(t);
    expect((await invite(team, ['x@example.com'], 'guest', team.member)).statusCode).toBe(403);
    expect((await invite(team, ['x@example.com'], 'guest', team.guest)).statusCode).toBe(403);
    expect((await invite(team, ['x@example.com'], 'guest', team.outsider)).statusCode).toBe(404);
    expect((await invite(team, ['x@example.com'], 'owner', team.owner)).statusCode).toBe(400);
  });

  test('an e-mail without an account reaches whoever registers and verifies it', async () => {
    const team = await buildTeam(t);
    const newcomer = uniqueUser('newcomer');
    expect((await invite(team, [newcomer.email], 'member')).json()).toMatchObject({ invited: 1 });
    const { token } = await inviteToken(newcomer.email);
    const account = await signUp(t.app, mailbox, newcomer);
    const api = as(t, { headers: { authorization: `Bearer ${account.tokens.access}` } });
    const mine = (await api('GET', '/api/invites/')).json<TPendingInvite[]>();
    expect(mine.map((i) => i.workspace.id)).toEqual([team.workspace.id]);
    const preview = await api('GET', `/api/invites/${token}/`);
    expect(preview.json()).toMatchObject({ role: 'member', member: false, inviter_name: team.admin.username });
    expect((await api('POST', `/api/invites/${mine[0]!.id}/accept/`)).statusCode).toBe(200);
    expect(await membership(team.workspace.id, account.id)).toMatchObject({ role: 'member' });
    const team2 = (await as(t, team.owner)('GET', `/api/workspaces/${team.workspace.id}/users/`)).json<
      TWorkspaceUser[]
    >();
    expect(team2.filter((u) => u.status === 'pending')).toEqual([]);
  });

  test('a personal link works for its addressee only', async () => {
    const team = await buildTeam(t);
    const invitee = await buildUser(t);
    await invite(team, [invitee.email], 'guest');
    const { token } = await inviteToken(invitee.email);
    expect((await as(t, team.outsider)('GET', `/api/invites/${token}/`)).statusCode).toBe(404);
    expect((await as(t, team.outsider)('POST', `/api/invites/${token}/accept/`)).statusCode).toBe(404);
    expect((await as(t, team.outsider)('POST', `/api/invites/${token}/decline/`)).statusCode).toBe(404);
    expect((await as(t, null)('GET', `/api/invites/${token}/`)).statusCode).toBe(401);
    expect((await as(t, invitee)('GET', `/api/invites/${token}/`)).json()).toMatchObject({
      workspace: { id: team.workspace.id },
      role: 'guest',
      member: false,
    });
    expect((await as(t, invitee)('POST', `/api/invites/${token}/accept/`)).json()).toMatchObject({ role: 'guest' });
    expect((await as(t, invitee)('GET', `/api/invites/${token}/`)).statusCode).toBe(404);
    expect((await as(t, invitee)('GET', '/api/invites/not-a-token/')).statusCode).toBe(404);
  });

  test('decline removes it; a declined invite cannot be accepted', async () => {
    const team = await buildTeam(t);
    const invitee = await buildUser(t);
    await invite(team, [invitee.username]);
    const [pending] = (await as(t, invitee)('GET', '/api/invites/')).json<TPendingInvite[]>();
    expect((await as(t, invitee)('POST', `/api/invites/${pending!.id}/decline/`)).statusCode).toBe(204);
    expect((await as(t, invitee)('GET', '/api/invites/')).json()).toEqual([]);
    expect((await as(t, invitee)('POST', `/api/invites/${pending!.id}/accept/`)).statusCode).toBe(404);
    // Declined, it may be sent again.
    expect((await invite(team, [invitee.username])).json()).toMatchObject({ invited: 1 });
  });

  test('resend waits 30 s, then mails a new link and the old one stops working', async () => {
    const team = await buildTeam(t);
    const invitee = await buildUser(t);
    await invite(team, [invitee.username]);
    const first = await inviteToken(invitee.email);
    const [pending] = (await as(t, invitee)('GET', '/api/invites/')).json<TPendingInvite[]>();
    const url = `/api/workspaces/${team.workspace.id}/invites/${pending!.id}/resend/`;
    const early = await as(t, team.admin)('POST', url);
    expect(early.statusCode).toBe(429);
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(0);
    expect((await as(t, team.member)('POST', url)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('POST', url)).statusCode).toBe(404);
    await t.database.db.execute(
      sql`update invites set sent_at = sent_at - interval '31 seconds' where id = ${pending!.id}`,
    );
    expect((await as(t, team.admin)('POST', url)).statusCode).toBe(204);
    const second = await inviteToken(invitee.email);
    expect(second.token).not.toBe(first.token);
    expect((await as(t, invitee)('GET', `/api/invites/${first.token}/`)).statusCode).toBe(404);
    expect((await as(t, invitee)('GET', `/api/invites/${second.token}/`)).statusCode).toBe(200);
  });

  test('cancel: the invite disappears for the invitee and its link stops working', async () => {
    const team = await buildTeam(t);
    const invitee = await buildUser(t);
    await invite(team, [invitee.username]);
    const { token } = await inviteToken(invitee.email);
    const [pending] = (await as(t, invitee)('GET', '/api/invites/')).json<TPendingInvite[]>();
    const url = `/api/workspaces/${team.workspace.id}/invites/${pending!.id}/`;
    expect((await as(t, team.member)('DELETE', url)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('DELETE', url)).statusCode).toBe(404);
    expect((await as(t, team.admin)('DELETE', url)).statusCode).toBe(204);
    expect((await as(t, team.admin)('DELETE', url)).statusCode).toBe(404);
    expect((await as(t, invitee)('GET', '/api/invites/')).json()).toEqual([]);
    expect((await as(t, invitee)('POST', `/api/invites/${token}/accept/`)).statusCode).toBe(404);
  });

  test('concurrent accepts of one invite make one membership', async () => {
    const team = await buildTeam(t);
    const invitee = await buildUser(t);
    await invite(team, [invitee.username]);
    const [pending] = (await as(t, invitee)('GET', '/api/invites/')).json<TPendingInvite[]>();
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => as(t, invitee)('POST', `/api/invites/${pending!.id}/accept/`)),
    );
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 404 || r.statusCode === 409)).toBe(true);
    const rows = await t.database.db
      .select()
      .from(schema.memberships)
      .where(and(eq(schema.memberships.workspaceId, team.workspace.id), eq(schema.memberships.userId, invitee.id)));
    expect(rows).toHaveLength(1);
  });
});

describe('invite link', () => {
  test('Admins generate, read, replace and disable it; joining takes its role', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/link/`;
    // No active link: 200 with null, not an error status (decision 195).
    const none = await as(t, team.admin)('GET', url);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
    const created = await as(t, team.admin)('POST', url, { role: 'member' });
    expect(created.statusCode, created.body).toBe(200);
    const { token } = created.json<{ token: string; role: string }>();
    expect(created.json()).toEqual({ token, role: 'member' });
    expect((await as(t, team.owner)('GET', url)).json()).toEqual({ token, role: 'member' });

    const joiner = await buildUser(t);
    expect((await as(t, joiner)('GET', `/api/invites/${token}/`)).json()).toMatchObject({
      workspace: { id: team.workspace.id },
      role: 'member',
      inviter_name: team.admin.username,
      member: false,
    });
    const joined = await as(t, joiner)('POST', `/api/invites/${token}/accept/`);
    expect(joined.json()).toMatchObject({ id: team.workspace.id, role: 'member' });
    expect(await membership(team.workspace.id, joiner.id)).toMatchObject({ invitedBy: 'link', role: 'member' });
    // A member accepting again keeps their role.
    await as(t, team.owner)('POST', `/api/workspaces/${team.workspace.id}/set_roles/`, {
      users: [joiner.id],
      role: 'guest',
    });
    expect((await as(t, joiner)('POST', `/api/invites/${token}/accept/`)).json()).toMatchObject({ role: 'guest' });
    expect((await as(t, joiner)('GET', `/api/invites/${token}/`)).json()).toMatchObject({ member: true });

    const replaced = (await as(t, team.admin)('POST', url, { role: 'guest' })).json<{ token: string }>();
    expect(replaced.token).not.toBe(token);
    const late = await buildUser(t);
    expect((await as(t, late)('POST', `/api/invites/${token}/accept/`)).statusCode).toBe(404);

    expect((await as(t, team.admin)('DELETE', url)).statusCode).toBe(204);
    expect((await as(t, late)('POST', `/api/invites/${replaced.token}/accept/`)).statusCode).toBe(404);
    expect((await as(t, late)('GET', `/api/invites/${replaced.token}/`)).statusCode).toBe(404);
    const disabled = await as(t, team.admin)('GET', url);
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toBeNull();
    expect((await as(t, team.admin)('DELETE', url)).statusCode).toBe(404);
  });

  test('Members and Guests get 403, outsiders 404', async () => {
    const team = await buildTeam(t);
    const url = `/api/workspaces/${team.workspace.id}/link/`;
    for (const user of [team.member, team.guest]) {
      expect((await as(t, user)('POST', url, { role: 'guest' })).statusCode).toBe(403);
      expect((await as(t, user)('GET', url)).statusCode).toBe(403);
      expect((await as(t, user)('DELETE', url)).statusCode).toBe(403);
    }
    expect((await as(t, team.outsider)('POST', url, { role: 'guest' })).statusCode).toBe(404);
    expect((await as(t, team.outsider)('GET', url)).statusCode).toBe(404);
  });

  test('concurrent accepts of a link make one membership', async () => {
    const team = await buildTeam(t);
    const { token } = (
      await as(t, team.admin)('POST', `/api/workspaces/${team.workspace.id}/link/`, { role: 'guest' })
    ).json<{ token: string }>();
    const joiner = await buildUser(t);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => as(t, joiner)('POST', `/api/invites/${token}/accept/`)),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const rows = await t.database.db
      .select()
      .from(schema.memberships)
      .where(and(eq(schema.memberships.workspaceId, team.workspace.id), eq(schema.memberships.userId, joiner.id)));
    expect(rows).toHaveLength(1);
  });
});
