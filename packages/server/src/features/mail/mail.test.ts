import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ZOutboxMail } from '@stageline/shared';
import { eq } from 'drizzle-orm';
import { schema, type Database } from '../../db';
import { relaxedLimits, uniqueUser } from '../../../test/accounts';
import { buildTestApp, createTestDatabase, testConfig, type TestApp } from '../../../test/helpers';
import { startMailbox, type Mailbox } from '../../../test/mailbox';
import { createMailer } from './mailer';
import { renderMail } from './templates';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe('dev outbox (no SMTP_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ database, authLimits: relaxedLimits });
  });
  afterAll(async () => {
    await t?.close();
  });

  test('a sign-up can be completed from the outbox alone', async () => {
    const user = uniqueUser();
    const registered = await t.app.inject({ method: 'POST', url: '/api/users/register/', payload: user });
    expect(registered.statusCode).toBe(201);

    const outbox = await t.app.inject({ method: 'GET', url: '/api/dev/outbox/' });
    expect(outbox.statusCode).toBe(200);
    const mails = ZOutboxMail.array().parse(outbox.json());
    const mail = mails.find((m) => m.to === user.email)!;
    expect(mail).toMatchObject({ subject: 'Your Stageline verification code' });
    const code = /^\d{6}$/m.exec(mail.text)![0];

    const checked = await t.app.inject({
      method: 'POST',
      url: '/api/otp/check/',
      payload: { code, ephemeral_token: registered.json<{ ephemeral_token: string }>().ephemeral_token },
    });
    expect(checked.statusCode).toBe(200);
  });

  test('lists the latest 50, newest first, without the HTML', async () => {
    for (let i = 0; i < 3; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/api/users/password_reset/',
        payload: { email: 'nobody@example.com' },
      });
      await t.app.inject({ method: 'POST', url: '/api/users/register/', payload: uniqueUser() });
    }
    const mails = (await t.app.inject({ method: 'GET', url: '/api/dev/outbox/' })).json<
      { id: number; html?: string }[]
    >();
    expect(mails.length).toBeGreaterThanOrEqual(4);
    expect(mails.length).toBeLessThanOrEqual(50);
    expect(mails[0]).not.toHaveProperty('html');
    const ids = mails.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  test('the log says where the mail is, never its code', async () => {
    const info = vi.fn();
    const log = { info, error: vi.fn() } as unknown as FastifyBaseLogger;
    const mailer = createMailer({ config: testConfig(), db: database.db, log });
    expect(mailer.devOutbox).toBe(true);
    await mailer.send({ to: 'dev@example.com', subject: 'Code', text: 'Your code:\n123456', html: '<p>123456</p>' });
    expect(info).toHaveBeenCalledWith(
      expect.objectContaining({ to: 'dev@example.com', subject: 'Code' }),
      'mail stored in the dev outbox: read it at /dev/outbox on this machine',
    );
    expect(JSON.stringify(info.mock.calls)).not.toContain('123456');
    await mailer.close();
  });

  test('only this machine reads the outbox: from another address it does not exist', async () => {
    const local = await t.app.inject({ method: 'GET', url: '/api/dev/outbox/', remoteAddress: '::1' });
    expect(local.statusCode).toBe(200);
    const remote = await t.app.inject({ method: 'GET', url: '/api/dev/outbox/', remoteAddress: '192.0.2.10' });
    expect(remote.statusCode).toBe(404);
    expect(remote.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
  });
});

describe('with SMTP_URL', () => {
  let mailbox: Mailbox;
  let t: TestApp;
  beforeAll(async () => {
    mailbox = await startMailbox();
    t = await buildTestApp({ database, config: { smtpUrl: mailbox.url }, authLimits: relaxedLimits });
  });
  afterAll(async () => {
    await t?.close();
    await mailbox?.close();
  });

  test('the outbox is not served, and keeps no mail text (codes and links)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/dev/outbox/' });
    expect(response.statusCode).toBe(404);
    const user = uniqueUser();
    await t.app.inject({ method: 'POST', url: '/api/users/register/', payload: user });
    await mailbox.waitFor(user.email);
    const [row] = await database.db.select().from(schema.mailOutbox).where(eq(schema.mailOutbox.to, user.email));
    expect(row).toMatchObject({ subject: 'Your Stageline verification code', text: '', html: '' });
  });

  test('mail is delivered over SMTP from MAIL_FROM, in the recipient language, with text and HTML', async () => {
    const user = uniqueUser();
    await t.app.inject({ method: 'POST', url: '/api/users/register/', payload: { ...user, language: 'ru' } });
    const mail = await mailbox.waitFor(user.email);
    expect(mail.raw).toMatch(/^From: Stageline <no-reply@stageline\.test>/m);
    expect(mail.subject).toBe('Код подтверждения Stageline');
    expect(mail.text).toContain('Код действует 10 мин.');
    expect(mail.html).toContain('<html lang="ru">');
  });
});

describe('templates', () => {
  test('escape every value in the HTML and keep it raw in the text', () => {
    const mail = renderMail(
      { kind: 'email_change', link: 'https://x.example/change_email?token=a&b="c"', email: '<b>@x.com', hours: 24 },
      { name: '<script>alert(1)</script>', language: 'en' },
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('&lt;b&gt;@x.com');
    expect(mail.html).toContain('href="https://x.example/change_email?token=a&amp;b=&quot;c&quot;"');
    expect(mail.text).toContain('Hello, <script>alert(1)</script>!');
    expect(mail.text).toContain('https://x.example/change_email?token=a&b="c"');
  });

  test.each(['en', 'ru'] as const)('every template renders in %s with no missing key', (language) => {
    const templates = [
      { kind: 'code', purpose: 'verify_email', code: '123456' },
      { kind: 'code', purpose: 'login', code: '123456' },
      { kind: 'code', purpose: 'password_change', code: '123456' },
      { kind: 'code', purpose: 'email_change', code: '123456' },
      { kind: 'code', purpose: 'two_factor', code: '123456' },
      { kind: 'code', purpose: 'account', code: '123456' },
      { kind: 'password_reset', link: 'http://x/reset_pass?token=t', minutes: 60 },
      { kind: 'email_change', link: 'http://x/change_email?token=t', email: 'a@b.c', hours: 24 },
      {
        kind: 'password_changed',
        resetLink: 'http://x/reset_pass',
        liveTokens: ['ci'],
        tokensLink: 'http://x/app/profile',
        revokedTokens: 2,
      },
    ] as const;
    for (const template of templates) {
      const mail = renderMail(template, { name: 'Ann', language });
      expect(mail.subject).not.toBe('');
      expect(mail.text).not.toMatch(/\{\{/);
      if (language === 'ru') expect(mail.text).toMatch(/[а-я]/);
    }
  });
});
