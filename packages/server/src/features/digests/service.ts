import type { FastifyBaseLogger } from 'fastify';
import type { TFunction } from 'i18next';
import { aliasedTable, and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { isLanguage, paths, type TLanguage, type TNotificationKind } from '@stageline/shared';
import { markdownToPlainText } from '@stageline/shared/markdown';
import type { Config } from '../../config';
import { schema, type Db } from '../../db';
import { translatorFor } from '../../http/i18n';
import { backgroundMailOrigin } from '../../http/mail-origin';
import type { TokenKeys } from '../auth';
import { renderBlocks, type Block, type Mailer } from '../mail';
import { periodStart, sendWindowMs, type DigestFrequency } from './periods';
import { signUnsubscribe } from './unsubscribe-token';

export type DigestContext = { config: Config; db: Db; keys: TokenKeys; mailer: Mailer; log: FastifyBaseLogger };

/** At most this many notifications are listed in one digest; the rest are counted ("and N more"). */
export const digestListLimit = 50;

export type DigestRunResult = { period: string; sent: number; skipped: number; failed: number };

/**
 * Sends the `frequency` digest of the period `now` falls in (on each user's own clock, within an hour
 * of its start) to every user of that frequency who has unread notifications no digest carried yet. Each user's period is claimed first in `digest_runs`
 * (INSERT … ON CONFLICT DO NOTHING): whichever process claims it sends, every other skips, so a
 * period is mailed once however many processes run this at once. When sending fails, the claim
 * and the `emailed_at` marks are released so a later run retries; the run then throws, so the job
 * is retried. A user's failure never stops the others.
 */
export async function runDigests(
  ctx: DigestContext,
  frequency: DigestFrequency,
  now = new Date(),
): Promise<DigestRunResult> {
  const candidates = await ctx.db
    .select({ id: schema.users.id, timeZone: schema.users.timeZone })
    .from(schema.users)
    .where(
      and(
        eq(schema.users.emailFrequency, frequency),
        eq(schema.users.emailVerified, true),
        sql`exists (select 1 from ${schema.notifications} n
          where n.user_id = ${schema.users.id} and n.read_at is null and n.emailed_at is null)`,
      ),
    )
    .orderBy(schema.users.id);
  const result: DigestRunResult = { period: periodStart(frequency, now).toISOString(), sent: 0, skipped: 0, failed: 0 };
  for (const { id, timeZone } of candidates) {
    // Each user's period on their own clock; one that began over an hour ago waits for the next.
    const start = periodStart(frequency, now, timeZone ?? 'UTC');
    if (now.getTime() - start.getTime() >= sendWindowMs) continue;
    try {
      const outcome = await digestUser(ctx, id, frequency, start);
      result[outcome] += 1;
    } catch (error) {
      result.failed += 1;
      ctx.log.error({ err: error, userId: id, frequency }, 'digest not sent; released for the next run');
    }
  }
  if (result.failed > 0) {
    throw new Error(`${result.failed} of ${candidates.length} ${frequency} digests failed (${result.sent} sent)`);
  }
  return result;
}

type Claimed = { ids: number[]; stamp: Date };

/** Claims the period and marks the notifications emailed, in one transaction; null: claimed elsewhere. */
async function claim(db: Db, userId: number, frequency: DigestFrequency, start: Date): Promise<Claimed | null> {
  return db.transaction(async (tx) => {
    const won = await tx
      .insert(schema.digestRuns)
      .values({ userId, frequency, periodStart: start })
      .onConflictDoNothing()
      .returning({ userId: schema.digestRuns.userId });
    if (won.length === 0) return null;
    const stamp = new Date();
    const marked = await tx
      .update(schema.notifications)
      .set({ emailedAt: stamp })
      .where(
        and(
          eq(schema.notifications.userId, userId),
          isNull(schema.notifications.readAt),
          isNull(schema.notifications.emailedAt),
        ),
      )
      .returning({ id: schema.notifications.id });
    const ids = marked.map((row) => row.id);
    await tx
      .update(schema.digestRuns)
      .set({ notifications: ids.length })
      .where(
        and(
          eq(schema.digestRuns.userId, userId),
          eq(schema.digestRuns.frequency, frequency),
          eq(schema.digestRuns.periodStart, start),
        ),
      );
    return { ids, stamp };
  });
}

/** Gives a claimed period and its notifications back, so the next run sends them. */
async function release(db: Db, userId: number, frequency: DigestFrequency, start: Date, claimed: Claimed) {
  await db.transaction(async (tx) => {
    if (claimed.ids.length > 0) {
      await tx
        .update(schema.notifications)
        .set({ emailedAt: null })
        .where(and(inArray(schema.notifications.id, claimed.ids), eq(schema.notifications.emailedAt, claimed.stamp)));
    }
    await tx
      .delete(schema.digestRuns)
      .where(
        and(
          eq(schema.digestRuns.userId, userId),
          eq(schema.digestRuns.frequency, frequency),
          eq(schema.digestRuns.periodStart, start),
        ),
      );
  });
}

async function digestUser(
  ctx: DigestContext,
  userId: number,
  frequency: DigestFrequency,
  start: Date,
): Promise<'sent' | 'skipped'> {
  const claimed = await claim(ctx.db, userId, frequency, start);
  if (!claimed) return 'skipped';
  if (claimed.ids.length === 0) return 'skipped'; // read or carried elsewhere in the meantime
  try {
    const [user] = await ctx.db.select().from(schema.users).where(eq(schema.users.id, userId));
    if (!user) return 'skipped';
    const items = await loadItems(ctx.db, claimed.ids);
    const language: TLanguage = isLanguage(user.language) ? user.language : 'en';
    const name = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username;
    const token = signUnsubscribe(ctx.keys, user.id);
    const origin = backgroundMailOrigin(ctx.config);
    const content = renderDigest(translatorFor(language), {
      frequency,
      items,
      total: claimed.ids.length,
      origin,
      unsubscribeLink: `${origin}${paths.unsubscribe(token)}`,
    });
    await ctx.mailer.send(
      {
        to: user.email,
        ...renderBlocks(content.subject, content.blocks, { name, language }),
        headers: {
          'List-Unsubscribe': `<${origin}/api/users/unsubscribe/?token=${encodeURIComponent(token)}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
      },
      { wait: true },
    );
    return 'sent';
  } catch (error) {
    await release(ctx.db, userId, frequency, start, claimed);
    throw error;
  }
}

/** A notification with the names its sentence needs. */
export type DigestItem = {
  id: number;
  kind: TNotificationKind;
  text: string;
  actor: string | null;
  taskId: number | null;
  taskName: string | null;
  unitId: number | null;
  unitName: string | null;
  projectId: number | null;
  workspace: string | null;
};

async function loadItems(db: Db, ids: number[]): Promise<DigestItem[]> {
  const n = schema.notifications;
  const actor = aliasedTable(schema.users, 'actor');
  const taskUnit = aliasedTable(schema.units, 'task_unit');
  const rows = await db
    .select({
      id: n.id,
      kind: n.kind,
      text: n.text,
      actorUsername: actor.username,
      actorFirst: actor.firstName,
      actorLast: actor.lastName,
      taskId: n.taskId,
      stageName: schema.stages.name,
      taskUnitId: taskUnit.id,
      taskUnitName: taskUnit.name,
      taskProjectId: taskUnit.projectId,
      unitId: schema.units.id,
      unitName: schema.units.name,
      unitProjectId: schema.units.projectId,
      workspace: schema.workspaces.name,
    })
    .from(n)
    .leftJoin(actor, eq(actor.id, n.actorId))
    .leftJoin(schema.tasks, eq(schema.tasks.id, n.taskId))
    .leftJoin(schema.stages, eq(schema.stages.id, schema.tasks.stageId))
    .leftJoin(taskUnit, eq(taskUnit.id, schema.tasks.unitId))
    .leftJoin(schema.units, eq(schema.units.id, n.unitId))
    .leftJoin(schema.workspaces, eq(schema.workspaces.id, n.workspaceId))
    .where(inArray(n.id, ids))
    .orderBy(desc(n.id))
    .limit(digestListLimit);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind as TNotificationKind,
    text: row.text,
    actor: row.actorUsername ? [row.actorFirst, row.actorLast].filter(Boolean).join(' ') || row.actorUsername : null,
    taskId: row.taskId,
    taskName: row.taskUnitName !== null && row.stageName !== null ? `${row.taskUnitName} · ${row.stageName}` : null,
    unitId: row.unitId ?? row.taskUnitId,
    unitName: row.unitName ?? row.taskUnitName,
    projectId: row.unitProjectId ?? row.taskProjectId,
    workspace: row.workspace,
  }));
}

/** The sentence of one notification in the recipient's language. */
export function digestSentence(t: TFunction, item: DigestItem): string {
  const actor = item.actor ?? t('Someone');
  const task = item.taskName ?? t('a task');
  const target = item.taskName ?? item.unitName ?? t('a task');
  const workspace = item.workspace ?? t('a workspace');
  switch (item.kind) {
    case 'assigned':
      return t('{{actor}} assigned you to {{task}}', { actor, task });
    case 'reviewer_added':
      return t('{{actor}} made you a reviewer of {{task}}', { actor, task });
    case 'review_requested':
      // Teams and review rules: a reviewer through a team reads which team was asked.
      return item.text.trim()
        ? t('{{task}} awaits a review from {{team}}', { task, team: item.text.trim() })
        : t('{{task}} awaits your review', { task });
    case 'accepted':
      return t('{{actor}} accepted {{task}}', { actor, task });
    case 'rejected':
      return t('{{actor}} rejected {{task}}', { actor, task });
    case 'comment':
      return t('{{actor}} commented on {{target}}', { actor, target });
    case 'mention':
      return t('{{actor}} mentioned you in a comment on {{target}}', { actor, target });
    case 'invited':
      return t('{{actor}} invited you to the workspace {{workspace}}', { actor, workspace });
    case 'webhook_disabled':
      return t('A webhook of {{workspace}} was turned off after a day of failed deliveries', { workspace });
    case 'webhook_paused':
      return t('A webhook of {{workspace}} was paused after failed deliveries in a row', { workspace });
  }
}

function itemLink(origin: string, item: DigestItem): string {
  if (item.taskId !== null) return `${origin}${paths.app.task(item.taskId)}`;
  if (item.unitId !== null && item.projectId !== null) return `${origin}${paths.app.unit(item.projectId, item.unitId)}`;
  return `${origin}${paths.app.notifications()}`;
}

const quoteMax = 200;

/** Subject and body blocks of a digest (laid out by the mail module like every other mail). */
export function renderDigest(
  t: TFunction,
  digest: {
    frequency: DigestFrequency;
    items: DigestItem[];
    total: number;
    origin: string;
    unsubscribeLink: string;
  },
): { subject: string; blocks: Block[] } {
  const { items, total, origin } = digest;
  const intro: Record<DigestFrequency, string> = {
    hourly: t('Your hourly digest: {{count}} unread notifications', { count: total }),
    daily: t('Your daily digest: {{count}} unread notifications', { count: total }),
    weekly: t('Your weekly digest: {{count}} unread notifications', { count: total }),
  };
  const blocks: Block[] = [{ text: intro[digest.frequency] }];
  for (const item of items) {
    // A review request's text is the team's name, said in the sentence rather than quoted; a
    // comment's Markdown is quoted as its words (`**animation**` reads "animation").
    const quote = item.kind === 'review_requested' ? '' : markdownToPlainText(item.text);
    blocks.push({
      item: digestSentence(t, item),
      href: itemLink(origin, item),
      ...(quote ? { quote: quote.length > quoteMax ? `${quote.slice(0, quoteMax - 1)}…` : quote } : {}),
    });
  }
  if (total > items.length) blocks.push({ text: t('…and {{count}} more.', { count: total - items.length }) });
  blocks.push({ link: `${origin}${paths.app.notifications()}`, label: t('Open notifications') });
  blocks.push({
    footer: t('You receive these digests because of the e-mail setting in your profile.'),
    href: digest.unsubscribeLink,
    label: t('Unsubscribe'),
  });
  return { subject: t('Stageline: {{count}} new notifications', { count: total }), blocks };
}
