import { and, eq, sql } from 'drizzle-orm';
import { WorkCalendar } from '@stageline/shared';
import { type TDaysOff, type TWorkCalendar, type TWorkCalendarUpdate } from '@stageline/shared/schedule';
import { rowsOf, schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { actorIn, authorize, authorizeIn } from '../workspaces';

/**
 * A workspace's calendar (docs/schedule.md, "Calendar"): its working weekdays, its holidays and
 * each member's days off. Lists are replaced as a whole; a day given twice counts once.
 */

const { workspaces, holidays, daysOff } = schema;

/** The calendar's rows: what the route answers and what the forecast counts with. */
export async function readCalendar(db: Db, workspaceId: number): Promise<TWorkCalendar & { hoursPerDay: number }> {
  const [row] = await rowsOf<{
    workingDays: number[];
    hoursPerDay: number;
    holidays: { date: string; name: string }[];
    daysOff: { person: number; date: string }[];
  }>(
    db,
    sql`select w.working_days as "workingDays", w.hours_per_day::float8 as "hoursPerDay",
      (select coalesce(json_agg(json_build_object('date', h.date, 'name', h.name) order by h.date), '[]')
        from holidays h where h.workspace_id = w.id) as holidays,
      (select coalesce(json_agg(json_build_object('person', d.user_id, 'date', d.date) order by d.user_id, d.date), '[]')
        from days_off d join memberships m on m.workspace_id = d.workspace_id and m.user_id = d.user_id
        where d.workspace_id = w.id) as "daysOff"
    from workspaces w where w.id = ${workspaceId}`,
  );
  if (!row) throw new AppError('not_found');
  return { working_days: row.workingDays, holidays: row.holidays, days_off: row.daysOff, hoursPerDay: row.hoursPerDay };
}

/** The calendar to count working days with (`WorkCalendar` of the shared package). */
export function workCalendarOf(calendar: TWorkCalendar): WorkCalendar {
  const off = new Map<number, string[]>();
  for (const { person, date } of calendar.days_off) {
    const list = off.get(person);
    if (list) list.push(date);
    else off.set(person, [date]);
  }
  return new WorkCalendar({
    workingDays: calendar.working_days,
    holidays: calendar.holidays.map((h) => h.date),
    daysOff: off,
  });
}

/** GET workspaces/{id}/calendar/ (any member). */
export async function getCalendar(db: Db, { userId, workspaceId }: { userId: number; workspaceId: number }) {
  await authorizeIn(db, { userId, workspaceId, resource: 'calendar', action: 'view' });
  const { hoursPerDay: _, ...calendar } = await readCalendar(db, workspaceId);
  return calendar;
}

/** PUT workspaces/{id}/calendar/ (Admins): working weekdays and holidays, each replaced when given. */
export async function putCalendar(
  db: Db,
  { userId, workspaceId, input }: { userId: number; workspaceId: number; input: TWorkCalendarUpdate },
) {
  await authorizeIn(db, { userId, workspaceId, resource: 'calendar', action: 'manage' });
  await db.transaction(async (tx) => {
    if (input.working_days) {
      const days = [...new Set(input.working_days)].sort();
      await tx
        .update(workspaces)
        .set({ workingDays: days, updatedAt: new Date() })
        .where(eq(workspaces.id, workspaceId));
    }
    if (input.holidays) {
      const unique = new Map(input.holidays.map((h) => [h.date, h.name ?? '']));
      await tx.delete(holidays).where(eq(holidays.workspaceId, workspaceId));
      if (unique.size > 0)
        await tx.insert(holidays).values([...unique].map(([date, name]) => ({ workspaceId, date, name })));
    }
  });
  return getCalendar(db, { userId, workspaceId });
}

/** PUT workspaces/{id}/days-off/{user}/: one's own whatever one's role; anyone's for Admins. */
export async function putDaysOff(
  db: Db,
  { userId, workspaceId, personId, input }: { userId: number; workspaceId: number; personId: number; input: TDaysOff },
) {
  const actor = await actorIn(db, userId, workspaceId);
  if (personId !== userId) {
    authorize(actor, 'calendar', 'manage');
    await actorIn(db, personId, workspaceId); // not a member: 404
  }
  const dates = [...new Set(input.dates)];
  await db.transaction(async (tx) => {
    await tx.delete(daysOff).where(and(eq(daysOff.workspaceId, workspaceId), eq(daysOff.userId, personId)));
    if (dates.length > 0)
      await tx.insert(daysOff).values(dates.map((date) => ({ workspaceId, userId: personId, date })));
  });
  return getCalendar(db, { userId, workspaceId });
}
