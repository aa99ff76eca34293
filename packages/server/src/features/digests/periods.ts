/**
 * When digests go out (UTC, the same for every user): hourly at minute 0, daily at 07:00, weekly on
 * Monday at 07:00. 07:00 UTC is morning in Europe and before the working day further east; a
 * per-user time zone is not stored, so one fixed hour keeps the rule simple and predictable.
 */
export const DigestFrequencies = ['hourly', 'daily', 'weekly'] as const;
export type DigestFrequency = (typeof DigestFrequencies)[number];

export const digestHourUtc = 7;

/** The cron line (UTC) of each frequency's job. */
export const digestCron: Record<DigestFrequency, string> = {
  hourly: '0 * * * *',
  daily: `0 ${digestHourUtc} * * *`,
  weekly: `0 ${digestHourUtc} * * 1`,
};

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/**
 * The start of the period `now` falls in: the latest scheduled send time at or before `now`. A run
 * late or twice in the same period finds the same start, which `digest_runs` claims once.
 */
export function periodStart(frequency: DigestFrequency, now: Date): Date {
  const hour = Math.floor(now.getTime() / hourMs) * hourMs;
  if (frequency === 'hourly') return new Date(hour);
  const day = new Date(Math.floor(now.getTime() / dayMs) * dayMs + digestHourUtc * hourMs);
  if (day.getTime() > now.getTime()) day.setTime(day.getTime() - dayMs);
  if (frequency === 'daily') return day;
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  return new Date(day.getTime() - sinceMonday * dayMs);
}
