import { z } from 'zod';

/**
 * The part of time (docs/time.md) that other records carry: the bounds, the estimate's schema and
 * the live event. The rest (logs, the timer) is `@stageline/shared/time`, so screens that never
 * log time do not load it.
 */

export const TimeLimits = {
  /** A task's estimate and a stage's default: quarter hours, at most this many hours. */
  estimate: { step: 0.25, max: 10_000 },
  /** One person's hours on one day, all tasks together. */
  dayHours: { max: 24 },
  /** A workspace's working day ("hours per day", to show estimates in days). */
  hoursPerDay: { min: 1, max: 24, default: 8 },
  /** How far ahead of today a log may be dated. */
  futureDays: 365,
  /** The longest period one list answer covers, and the CSV export. */
  listDays: 93,
  exportDays: 366,
  note: { max: 500 },
  /** A timer's time is rounded up to this many hours when it becomes a log. */
  timerStep: 0.25,
} as const;

export const EstimateMessages = { quarterHours: 'Use steps of a quarter hour (0.25).' } as const;

/** Is `value` a whole number of quarter hours? */
export function isQuarterHours(value: number): boolean {
  return Math.abs(value * 4 - Math.round(value * 4)) < 1e-6;
}

/** An estimate in hours shown in days of `hoursPerDay` (1.5 d), rounded to two decimals. */
export function hoursAsDays(hours: number, hoursPerDay: number): number {
  return Math.round((hours / hoursPerDay) * 100) / 100;
}

/** An estimate: quarter hours, or null for none. */
export const ZEstimate = z
  .number()
  .positive()
  .max(TimeLimits.estimate.max)
  .refine(isQuarterHours, { message: EstimateMessages.quarterHours });

/** The live event of a change of time (`time`): the web app refetches the timesheet and the task. */
export const ZTimeEvent = z.object({
  task: z.number().int(),
  person: z.number().int(),
  date: z.string(),
  /** The day's hours on the task after the change; 0 when the log was deleted. */
  hours: z.number(),
  action: z.enum(['logged', 'updated', 'deleted']),
});
export type TTimeEvent = z.infer<typeof ZTimeEvent>;
