import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { startMailbox, type Mailbox, type ReceivedMail } from '../../../test/mailbox';
import { buildNotification, digestContext, emailedIds, setEmailFrequency } from '../../../test/notifications';
import { buildFlow, buildUnit, taskAt } from '../../../test/units';
import { addMember, buildUser, buildWorkspace, type TestUser } from '../../../test/workspaces';
import { signAccess } from '../auth/tokens';
import { periodStart } from './periods';
import { runDigests, type DigestContext } from './service';
import { signUnsubscribe } from './unsubscribe-token';

const publicUrl = 'https://stageline.test';
let mailbox: Mailbox;
let t: TestApp;
let ctx: DigestContext & { close(): Promise<void> };
let actor: TestUser;
let workspace: { id: number };
let scene: { taskId: number; unitId: number; projectId: number; unitName: string; stageName: string };

/** A fixed instant, Wednesday 2026-11-18 09:30 UTC (the daily period began at 07:00 that day). */
const wednesday = new Date('2026-11-18T09:30:00Z');
/** The quarter-hourly run of that morning that mails the day's digests (within an hour of 07:00 UTC). */
const wednesdayMorning = new Date('2026-11-18T07:15:00Z');

beforeAll(async () => {
  mailbox = await startMailbox();
  t = await buildTestApp({ config: { smtpUrl: mailbox.url }, authLimits: relaxedLimits });
  // PUBLIC_URL for the links in mails only: on the app it would redirect inject()'s host.
  ctx = await digestContext(t, { publicUrl });
  actor = await buildUser(t, { firstName: 'Ada', prefix: 'actor' });
  workspace = await buildWorkspace(t, { owner: actor, name: 'Acme' });
  const flow = await buildFlow(t, { workspace, stages: [{ name: 'Design' }] });
  const unit = await buildUnit(t, actor, flow, 'Landing page');
  scene = {
    taskId: taskAt(unit, flow, 0),
    unitId: unit.id,
    projectId: flow.project.id,
    unitName: 'Landing page',
    stageName: 'Design',
  };
});
afterAll(async () => {
  await ctx?.close();
  await t?.close();
  await mailbox?.close();
});

/** A member of the scene's workspace with an e-mail frequency. */
async function recipient(frequency: string, language: 'en' | 'ru' = 'en') {
  const user = await buildUser(t, { language, firstName: language === 'ru' ? 'Борис' : 'Bob', prefix: 'rcpt' });
  await addMember(t, { workspace, user, role: 'member', inviter: actor });
  await setEmailFrequency(t, user, frequency);
  return user;
}

/** The raw headers with folded lines joined. */
const headersOf = (mail: ReceivedMail) => mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');

const linkOf = (mail: ReceivedMail, path: string) => new RegExp(`${publicUrl}${path}(?=\\s|$)`, 'm').test(mail.text);

describe('periods', () => {
  test('hourly at :00, daily at 07:00 UTC, weekly on Monday 07:00 UTC', () => {
    expect(periodStart('hourly', wednesday).toISOString()).toBe('2026-11-18T09:00:00.000Z');
    expect(periodStart('daily', wednesday).toISOString()).toBe('2026-11-18T07:00:00.000Z');
    expect(periodStart('daily', new Date('2026-11-18T06:59:59Z')).toISOString()).toBe('2026-11-17T07:00:00.000Z');
    expect(periodStart('weekly', wednesday).toISOString()).toBe('2026-11-16T07:00:00.000Z');
    expect(periodStart('weekly', new Date('2026-11-16T06:00:00Z')).toISOString()).toBe('2026-11-09T07:00:00.000Z');
    expect(periodStart('weekly', new Date('2026-11-16T07:00:00Z')).toISOString()).toBe('2026-11-16T07:00:00.000Z');
  });
});

describe('the digest job', () => {
  test('one mail in the recipient’s language with only the unread, not yet e-mailed notifications', async () => {
    const bob = await recipient('daily');
    const assigned = await buildNotification(t, {
      user: bob,
      kind: 'assigned',
      actor,
      workspace,
      unit: scene.unitId,
      task: scene.taskId,
    });
    const comment = await buildNotification(t, {
      user: bob,
      kind: 'comment',
      actor,
      workspace,
      unit: scene.unitId,
      text: 'Looks <b>good</b> to me, the **animation** [too](https://example.com)',
    });
    const invited = await buildNotification(t, { user: bob, kind: 'invited', actor, workspace });
    const read = await buildNotification(t, { user: bob, kind: 'accepted', actor, task: scene.taskId, read: true });
    const before = await buildNotification(t, {
      user: bob,
      kind: 'rejected',
      actor,
      task: scene.taskId,
      emailed: true,
    });

    const boris = await recipient('daily', 'ru');
    await buildNotification(t, { user: boris, kind: 'accepted', actor, workspace, task: scene.taskId });
    await buildNotification(t, { user: boris, kind: 'mention', workspace, unit: scene.unitId, text: '@boris глянь' });

    const result = await runDigests(ctx, 'daily', wednesdayMorning);
    expect(result).toMatchObject({ period: '2026-11-18T07:00:00.000Z', failed: 0 });
    expect(result.sent).toBeGreaterThanOrEqual(2);

    const mail = await mailbox.waitFor(bob.email);
    expect(mail.subject).toBe('Stageline: 3 new notifications');
    expect(mail.text).toContain('Hello, Bob!');
    expect(mail.text).toContain('Your daily digest: 3 unread notifications');
    const task = `${scene.unitName} · ${scene.stageName}`;
    expect(mail.text).toContain(`• Ada assigned you to ${task}`);
    expect(mail.text).toContain(`• Ada commented on ${scene.unitName}`);
    // Markdown reads as plain text (issue 19); HTML a person typed stays as typed, escaped in HTML.
    expect(mail.text).toContain('“Looks <b>good</b> to me, the animation too”');
    expect(mail.text).toContain('• Ada invited you to the workspace Acme');
    expect(mail.text).not.toContain('accepted');
    expect(mail.text).not.toContain('rejected');
    expect(linkOf(mail, `/app/tasks/${scene.taskId}`)).toBe(true);
    expect(linkOf(mail, `/app/projects/${scene.projectId}/units/${scene.unitId}`)).toBe(true);
    expect(linkOf(mail, '/app/notifications')).toBe(true);
    expect(mail.html).toContain('Looks &lt;b&gt;good&lt;/b&gt; to me'); // escaped in HTML
    expect(headersOf(mail)).toMatch(
      /^List-Unsubscribe: <https:\/\/stageline\.test\/api\/users\/unsubscribe\/\?token=/m,
    );
    expect(headersOf(mail)).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
    expect(mail.text).toMatch(/https:\/\/stageline\.test\/unsubscribe\/[\w-]+\.[\w-]+\.[\w-]+/);
    expect(await emailedIds(t, bob)).toEqual([assigned, comment, invited, before].sort((a, b) => a - b));
    expect(await emailedIds(t, bob)).not.toContain(read);

    const russian = await mailbox.waitFor(boris.email);
    expect(russian.subject).toBe('Stageline: 2 новых уведомления');
    expect(russian.text).toContain('Здравствуйте, Борис!');
    expect(russian.text).toContain('Ваша ежедневная сводка: 2 непрочитанных уведомления');
    expect(russian.text).toContain(`• Ada принял(а) задачу ${task}`);
    expect(russian.text).toContain(`• Кто-то упомянул(а) вас в комментарии к ${scene.unitName}`);
    expect(russian.text).toContain('Отписаться');
  });

  test('respects each user’s frequency, and never means never', async () => {
    const users = {
      hourly: await recipient('hourly'),
      daily: await recipient('daily'),
      weekly: await recipient('weekly'),
      never: await recipient('never'),
    };
    for (const user of Object.values(users)) {
      await buildNotification(t, { user, kind: 'review_requested', task: scene.taskId, workspace });
    }
    const monday = new Date('2026-11-23T07:00:05Z');
    await runDigests(ctx, 'hourly', monday);
    expect((await mailbox.waitFor(users.hourly.email)).text).toContain(
      `• ${scene.unitName} · ${scene.stageName} awaits your review`,
    );
    expect(await mailbox.none(users.daily.email)).toBe(true);

    await runDigests(ctx, 'daily', monday);
    expect((await mailbox.waitFor(users.daily.email)).text).toContain('Your daily digest: 1 unread notification\n');
    await runDigests(ctx, 'weekly', monday);
    expect((await mailbox.waitFor(users.weekly.email)).subject).toBe('Stageline: 1 new notification');

    for (const user of Object.values(users)) expect(await mailbox.none(user.email)).toBe(true);
    expect(await emailedIds(t, users.never)).toEqual([]);
  });

  test('daily at 07:00 on the user’s own clock: Tokyo, across a DST change in Berlin, never hours late', async () => {
    const tokyo = await recipient('daily');
    const berlin = await recipient('daily');
    await t.database.db.update(schema.users).set({ timeZone: 'Asia/Tokyo' }).where(eq(schema.users.id, tokyo.id));
    await t.database.db.update(schema.users).set({ timeZone: 'Europe/Berlin' }).where(eq(schema.users.id, berlin.id));
    await buildNotification(t, { user: tokyo, kind: 'invited', actor, workspace });
    // 06:45 in Tokyo: not yet; 07:00 (22:00 UTC the evening before): sent.
    await runDigests(ctx, 'daily', new Date('2026-11-23T21:45:00Z'));
    expect(await mailbox.none(tokyo.email, 0)).toBe(true);
    await runDigests(ctx, 'daily', new Date('2026-11-23T22:00:00Z'));
    expect((await mailbox.waitFor(tokyo.email)).subject).toBe('Stageline: 1 new notification');

    // Berlin leaves summer time on 2026-10-25: 07:00 is 05:00 UTC on the 24th and 06:00 UTC on the 26th.
    await buildNotification(t, { user: berlin, kind: 'invited', actor, workspace });
    await runDigests(ctx, 'daily', new Date('2026-10-24T05:00:00Z'));
    expect(await mailbox.waitFor(berlin.email)).toBeDefined();
    await buildNotification(t, { user: berlin, kind: 'invited', actor, workspace });
    await runDigests(ctx, 'daily', new Date('2026-10-26T05:00:00Z'));
    expect(await mailbox.none(berlin.email, 0)).toBe(true);
    await runDigests(ctx, 'daily', new Date('2026-10-26T06:00:00Z'));
    expect(await mailbox.waitFor(berlin.email)).toBeDefined();

    // A notification arriving in the afternoon waits for the next morning rather than going out at once.
    await buildNotification(t, { user: berlin, kind: 'invited', actor, workspace });
    await runDigests(ctx, 'daily', new Date('2026-10-26T14:00:00Z'));
    expect(await mailbox.none(berlin.email, 0)).toBe(true);
  });

  test('weekly on Monday 07:00 local; periods follow the zone', () => {
    expect(periodStart('daily', new Date('2026-11-23T22:00:00Z'), 'Asia/Tokyo').toISOString()).toBe(
      '2026-11-23T22:00:00.000Z',
    );
    expect(periodStart('daily', new Date('2026-11-23T21:59:00Z'), 'Asia/Tokyo').toISOString()).toBe(
      '2026-11-22T22:00:00.000Z',
    );
    // Monday 2026-11-23 07:00 in Tokyo is Sunday 22:00 UTC.
    expect(periodStart('weekly', new Date('2026-11-25T12:00:00Z'), 'Asia/Tokyo').toISOString()).toBe(
      '2026-11-22T22:00:00.000Z',
    );
    expect(periodStart('weekly', new Date('2026-11-25T12:00:00Z'), 'America/New_York').toISOString()).toBe(
      '2026-11-23T12:00:00.000Z',
    );
  });

  test('a second run in the same period sends nothing; the next period sends only what is new', async () => {
    const user = await recipient('hourly');
    const first = await buildNotification(t, { user, kind: 'assigned', actor, task: scene.taskId });
    const at = new Date('2026-11-18T12:00:10Z');
    await runDigests(ctx, 'hourly', at);
    await buildNotification(t, { user, kind: 'accepted', actor, task: scene.taskId });
    const again = await runDigests(ctx, 'hourly', new Date('2026-11-18T12:40:00Z'));
    expect(again.sent).toBe(0);
    const mail = await mailbox.waitFor(user.email);
    expect(mail.text).toContain('Ada assigned you to');
    expect(mail.text).not.toContain('accepted');
    expect(await mailbox.none(user.email)).toBe(true);
    const claims = await t.database.db.select().from(schema.digestRuns).where(eq(schema.digestRuns.userId, user.id));
    expect(claims).toMatchObject([{ frequency: 'hourly', notifications: 1 }]);

    await runDigests(ctx, 'hourly', new Date('2026-11-18T13:00:05Z'));
    const next = await mailbox.waitFor(user.email);
    expect(next.subject).toBe('Stageline: 1 new notification');
    expect(next.text).toContain('Ada accepted');
    expect(next.text).not.toContain('assigned you');
    expect(await emailedIds(t, user)).toHaveLength(2);
    expect(first).toBeGreaterThan(0);
  });

  test('a failed send releases the claim and the marks, so the next run sends them', async () => {
    const user = await recipient('weekly');
    await buildNotification(t, { user, kind: 'mention', actor, unit: scene.unitId, text: 'hi' });
    // A port nothing listens on: the SMTP connection is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const broken = await digestContext(t, { publicUrl, smtpUrl: `smtp://127.0.0.1:${port}` });
    const at = new Date('2026-11-30T07:00:00Z');
    try {
      await expect(runDigests(broken, 'weekly', at)).rejects.toThrow(/weekly digests failed/);
    } finally {
      await broken.close();
    }
    expect(await emailedIds(t, user)).toEqual([]);
    const claims = await t.database.db
      .select()
      .from(schema.digestRuns)
      .where(and(eq(schema.digestRuns.userId, user.id), eq(schema.digestRuns.frequency, 'weekly')));
    expect(claims).toEqual([]);

    await runDigests(ctx, 'weekly', at);
    expect((await mailbox.waitFor(user.email)).text).toContain('Ada mentioned you in a comment on');
    expect(await emailedIds(t, user)).toHaveLength(1);
  });
});

describe('unsubscribe (POST users/unsubscribe/)', () => {
  const frequencyOf = async (user: { id: number }) =>
    (
      await t.database.db
        .select({ f: schema.users.emailFrequency })
        .from(schema.users)
        .where(eq(schema.users.id, user.id))
    )[0]!.f;

  test('the link of a digest sets the frequency to never, without signing in', async () => {
    const user = await recipient('hourly');
    await buildNotification(t, { user, kind: 'assigned', actor, task: scene.taskId });
    await runDigests(ctx, 'hourly', new Date('2026-11-18T15:00:00Z'));
    const mail = await mailbox.waitFor(user.email);
    const token = /https:\/\/stageline\.test\/unsubscribe\/(\S+)/.exec(mail.text)![1]!;

    const response = await t.app.inject({ method: 'POST', url: '/api/users/unsubscribe/', payload: { token } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ detail: 'You are unsubscribed from e-mail digests.' });
    expect(await frequencyOf(user)).toBe('never');

    // Again: still fine (the link may be clicked twice).
    const twice = await t.app.inject({ method: 'POST', url: '/api/users/unsubscribe/', payload: { token } });
    expect(twice.statusCode).toBe(200);
  });

  test('one-click unsubscribe (RFC 8058) from the List-Unsubscribe header', async () => {
    const user = await recipient('daily');
    await buildNotification(t, { user, kind: 'assigned', actor, task: scene.taskId });
    await runDigests(ctx, 'daily', new Date('2026-11-19T07:00:00Z'));
    const mail = await mailbox.waitFor(user.email);
    const header = /^List-Unsubscribe: <([^>]+)>/m.exec(headersOf(mail))![1]!;
    const url = new URL(header);
    const response = await t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await frequencyOf(user)).toBe('never');
  });

  test('a tampered, foreign or missing token is a clear 400, in the caller’s language', async () => {
    const user = await recipient('weekly');
    const token = signUnsubscribe(ctx.keys, user.id);
    const [header, payload, signature] = token.split('.');
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
    const forged = [
      `${header}.${payload}.${flipped}`,
      // Another user's id in the payload, the old signature.
      `${header}.${Buffer.from(JSON.stringify({ typ: 'unsubscribe', sub: String(actor.id), exp: 4e9 })).toString('base64url')}.${signature}`,
      // A valid token of another kind (an access token) is not an unsubscribe token.
      signAccess(ctx.keys, user.id, 1),
    ];
    for (const bad of forged) {
      const response = await t.app.inject({ method: 'POST', url: '/api/users/unsubscribe/', payload: { token: bad } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        detail: 'This unsubscribe link is invalid or has expired.',
        code: 'invalid_token',
      });
    }
    const russian = await t.app.inject({
      method: 'POST',
      url: '/api/users/unsubscribe/',
      headers: { 'accept-language': 'ru' },
      payload: {},
    });
    expect(russian.statusCode).toBe(400);
    expect(russian.json()).toEqual({ detail: 'Ссылка для отписки неверна или устарела.', code: 'invalid_token' });
    expect(await frequencyOf(user)).toBe('weekly');
    expect(await frequencyOf(actor)).toBe('daily');
  });
});
