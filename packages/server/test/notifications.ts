import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { TNotificationKind } from '@stageline/shared';
import type { Config } from '../src/config';
import { schema } from '../src/db';
import { createKeys, loadSigningSecret } from '../src/features/auth';
import type { DigestContext } from '../src/features/digests';
import { createMailer } from '../src/features/mail/mailer';
import type { TestApp } from './helpers';

/**
 * Notification rows written straight to the database (arranging a scene for digests, not testing
 * how the product makes them).
 */
export async function buildNotification(
  t: TestApp,
  {
    user,
    kind,
    actor,
    workspace,
    unit,
    task,
    text,
    read = false,
    emailed = false,
  }: {
    user: { id: number };
    kind: TNotificationKind;
    actor?: { id: number };
    workspace?: { id: number };
    unit?: number;
    task?: number;
    text?: string;
    read?: boolean;
    emailed?: boolean;
  },
): Promise<number> {
  const [row] = await t.database.db
    .insert(schema.notifications)
    .values({
      userId: user.id,
      kind,
      actorId: actor?.id ?? null,
      workspaceId: workspace?.id ?? null,
      unitId: unit ?? null,
      taskId: task ?? null,
      text: text ?? '',
      readAt: read ? new Date() : null,
      emailedAt: emailed ? new Date() : null,
    })
    .returning({ id: schema.notifications.id });
  return row!.id;
}

/** Sets a user's e-mail frequency (`hourly`, `daily`, `weekly`, `never`). */
export async function setEmailFrequency(t: TestApp, user: { id: number }, frequency: string) {
  await t.database.db.update(schema.users).set({ emailFrequency: frequency }).where(eq(schema.users.id, user.id));
}

/** The ids of a user's notifications a digest carried. */
export async function emailedIds(t: TestApp, user: { id: number }): Promise<number[]> {
  const rows = await t.database.db
    .select({ id: schema.notifications.id, emailedAt: schema.notifications.emailedAt })
    .from(schema.notifications)
    .where(eq(schema.notifications.userId, user.id));
  return rows
    .filter((row) => row.emailedAt !== null)
    .map((row) => row.id)
    .sort((a, b) => a - b);
}

/**
 * What the digest job runs with, built like the app builds it (the signing secret from the same
 * database, so the app accepts the unsubscribe tokens), with its own mailer; `overrides` change its configuration (PUBLIC_URL, SMTP_URL).
 */
export async function digestContext(
  t: TestApp,
  overrides: Partial<Config> = {},
): Promise<DigestContext & { close(): Promise<void> }> {
  const config = { ...t.config, ...overrides };
  const log = pino({ level: 'silent' });
  const mailer = createMailer({ config, db: t.database.db, log });
  const keys = createKeys(await loadSigningSecret(t.database.db, config));
  return { config, db: t.database.db, keys, mailer, log, close: () => mailer.close() };
}
