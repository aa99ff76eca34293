import { eq, sql } from 'drizzle-orm';
import ical, { ICalCalendarMethod } from 'ical-generator';
import { isLanguage } from '@stageline/shared';
import { type TCalendarFeedState } from '@stageline/shared/schedule';
import { rowsOf, schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { translatorFor } from '../../http/i18n';
import { hashSecret, randomToken, type TokenKeys } from '../auth';
import { tasksOfPerson } from '../tasks';

/**
 * The personal iCalendar feed (docs/schedule.md, "Calendar feed"): a secret URL that calendar apps
 * subscribe to, with the due dates of the person's open tasks and the milestones of the projects
 * they are in, as all-day events. Only the token's keyed hash is stored; a new URL replaces the old
 * one and deleting revokes it. An unknown or revoked token answers a bare 404.
 */

const { calendarFeeds } = schema;

/** The feed's path under the API, as calendar apps fetch it. */
export const feedPath = (token: string) => `/api/calendar/${token}.ics`;

export async function feedState(db: Db, userId: number): Promise<TCalendarFeedState> {
  const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId));
  return { active: Boolean(row), created_at: row ? row.createdAt.toISOString() : null };
}

/** POST me/calendar-feed/: a new secret URL (the previous one stops working). */
export async function renewFeed(
  db: Db,
  keys: TokenKeys,
  { userId, origin }: { userId: number; origin: string },
): Promise<TCalendarFeedState> {
  const token = randomToken();
  const tokenHash = hashSecret(keys, token);
  const now = new Date();
  await db
    .insert(calendarFeeds)
    .values({ userId, tokenHash, createdAt: now })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash, createdAt: now } });
  return { active: true, created_at: now.toISOString(), url: `${origin}${feedPath(token)}` };
}

/** DELETE me/calendar-feed/ */
export async function revokeFeed(db: Db, userId: number): Promise<void> {
  await db.delete(calendarFeeds).where(eq(calendarFeeds.userId, userId));
}

type FeedRow = { kind: 'task' | 'milestone'; id: number; day: string; title: string; project: string };

/** GET calendar/{token}.ics: the feed's text, or a 404 for a token that names no feed. */
export async function renderFeed(db: Db, keys: TokenKeys, token: string): Promise<string> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new AppError('not_found');
  const [owner] = await rowsOf<{ userId: number; language: string }>(
    db,
    sql`select f.user_id as "userId", u.language from calendar_feeds f join users u on u.id = f.user_id
      where f.token_hash = ${hashSecret(keys, token)}`,
  );
  if (!owner) throw new AppError('not_found');
  const userId = owner.userId;
  const rows = await rowsOf<FeedRow>(
    db,
    sql`select 'task' as kind, t.id, (t.effective_due at time zone 'UTC')::date::text as day,
        un.name || ' · ' || st.name as title, pr.name as project
      from tasks t join units un on un.id = t.unit_id join stages st on st.id = t.stage_id
      join projects pr on pr.id = un.project_id
      join memberships m on m.workspace_id = pr.workspace_id and m.user_id = ${userId}
      where t.id in ${tasksOfPerson('assignees', userId)} and t.effective_due is not null and t.status <> 'done'
    union all
    select 'milestone', ms.id, ms.date::text, ms.name, pr.name
      from milestones ms join projects pr on pr.id = ms.project_id
      join memberships m on m.workspace_id = pr.workspace_id and m.user_id = ${userId}
    order by 3, 1, 2`,
  );
  const t = translatorFor(isLanguage(owner.language) ? owner.language : 'en');
  const calendar = ical({
    name: t('Stageline: my tasks'),
    method: ICalCalendarMethod.PUBLISH,
    prodId: '//Stageline//Schedule//EN',
  });
  for (const row of rows) {
    const start = new Date(`${row.day}T00:00:00Z`);
    calendar.createEvent({
      id: `${row.kind}-${row.id}@stageline`,
      start,
      allDay: true,
      summary:
        row.kind === 'task'
          ? t('Due: {{title}}', { title: row.title })
          : t('Milestone: {{title}}', { title: row.title }),
      description: row.project,
    });
  }
  return calendar.toString();
}
