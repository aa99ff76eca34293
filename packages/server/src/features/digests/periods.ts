import { calendarDate, zonedInstant } from '@stageline/shared/dates';

/**
 * When digests go out, in each user's own time zone (docs/digests.md): hourly at minute 0, daily at
 * 07:00 and weekly on Monday at 07:00 on their wall clock. Users whose zone is not known yet count
 * as UTC.
 */
export const DigestFrequencies = ['hourly', 'daily', 'weekly'] as const;
export type DigestFrequency = (typeof DigestFrequencies)[number];

/** The local hour of daily and weekly digests. */
export const digestHour = 7;

/**
 * A period is mailed by a run within this long after it starts; later, it waits for the next one
 * (someone who switches to daily at 15:00 gets tomorrow's, at 07:00). An hour covers a missed run.
 */
export const sendWindowMs = 60 * 60 * 1000;

/**
 * The cron lines (UTC) of each frequency's job. Daily and weekly run every quarter hour: somewhere
 * it is 07:00 at every quarter hour (zones are offset by 15, 30 or 45 minutes too).
 */
export const digestCron: Record<DigestFrequency, string> = {
  hourly: '0 * * * *',
  daily: '*/15 * * * *',
  weekly: '*/15 * * * *',
};

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/**
 * The start of the period `now` falls in for someone in `timeZone`: the latest scheduled send time
 * at or before `now`. A run late or twice in the same period finds the same start, which
 * `digest_runs` claims once.
 */
export function periodStart(frequency: DigestFrequency, now: Date, timeZone = 'UTC'): Date {
  if (frequency === 'hourly') return new Date(Math.floor(now.getTime() / hourMs) * hourMs);
  // The local calendar date, held as a UTC midnight so that day arithmetic ignores DST.
  const today = calendarDate(now, timeZone);
  let date = new Date(Date.UTC(today.year, today.month - 1, today.day));
  const sendAt = (d: Date) =>
    zonedInstant(
      { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: digestHour },
      timeZone,
    );
  if (sendAt(date).getTime() > now.getTime()) date = new Date(date.getTime() - dayMs);
  if (frequency === 'weekly') date = new Date(date.getTime() - ((date.getUTCDay() + 6) % 7) * dayMs);
  return sendAt(date);
}
