import { z } from 'zod';
import { ZId } from '../validation';
import { ZCsvDelimiter } from './csv';

/**
 * Estimates, time logs and the timer (docs/time.md, issue 33). The bounds live here once: the server
 * validates with them, the timesheet checks its cells with them, the database repeats them as CHECKs.
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

export const TimeMessages = {
  quarterHours: 'Use steps of a quarter hour (0.25).',
  twoDecimals: 'Use at most two decimals.',
  dayFull: 'That would make more than 24 hours on {{date}} in total.',
  beforeProject: 'That day is before the project was created.',
  tooFarAhead: 'That day is more than a year ahead.',
  notYours: 'You can change only your own time.',
  mayNotLog: 'Only the assignees and reviewers of a task, or Members, can log time on it.',
  timerRunning: 'A timer is already running. Stop it first.',
  noTimer: 'No timer is running.',
  rangeTooLong: 'Choose at most {{max}} days.',
  rangeOrder: 'The end is before the start.',
} as const;

/** Is `value` a whole number of hundredths (floating point aside)? */
export function hasTwoDecimals(value: number): boolean {
  return Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
}

/** Is `value` a whole number of quarter hours? */
export function isQuarterHours(value: number): boolean {
  return Math.abs(value * 4 - Math.round(value * 4)) < 1e-6;
}

/** A timer's elapsed milliseconds as logged hours: rounded up to a quarter hour, at least one quarter. */
export function timerHours(elapsedMs: number): number {
  const quarters = Math.max(1, Math.ceil(elapsedMs / (TimeLimits.timerStep * 3_600_000) - 1e-9));
  return quarters * TimeLimits.timerStep;
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
  .refine(isQuarterHours, { message: TimeMessages.quarterHours });

/** Hours of one log: more than 0, at most a day, at most two decimals. */
export const ZLogHours = z
  .number()
  .positive()
  .max(TimeLimits.dayHours.max)
  .refine(hasTwoDecimals, { message: TimeMessages.twoDecimals });

const ZDay = z.iso.date();
const ZNote = z.string().trim().max(TimeLimits.note.max);

/** POST tasks/{id}/time/: hours on a day; a second post for the same day adds to it. */
export const ZTimeLogCreate = z.object({ date: ZDay, hours: ZLogHours, note: ZNote.optional() });
export type TTimeLogCreate = z.infer<typeof ZTimeLogCreate>;
/** PATCH time/{id}/: the day's hours (replaced, not added) or the note. */
export const ZTimeLogPatch = z.object({ hours: ZLogHours, note: ZNote }).partial();
export type TTimeLogPatch = z.infer<typeof ZTimeLogPatch>;

/** One person's time on one task on one day. */
export const ZTimeLog = z.object({
  id: z.number().int(),
  date: z.string(),
  hours: z.number(),
  note: z.string(),
  person: z.object({ id: z.number().int(), name: z.string() }),
  task: z.object({
    id: z.number().int(),
    unit: z.string(),
    stage: z.string(),
    estimate_hours: z.number().nullable(),
  }),
  project: z.object({ id: z.number().int(), name: z.string() }),
  workspace: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TTimeLog = z.infer<typeof ZTimeLog>;

/**
 * GET time/?workspace=&project=&person=&task=&from=&to=: logs of the caller's workspaces, by day.
 * Without `person`, a Guest or Member gets their own logs, an Admin everyone's (docs/time.md).
 */
export const ZTimeLogQuery = z.object({
  workspace: ZId.optional(),
  project: ZId.optional(),
  person: z.union([z.literal('me'), ZId]).optional(),
  task: ZId.optional(),
  from: ZDay,
  to: ZDay,
});
export type TTimeLogQuery = z.infer<typeof ZTimeLogQuery>;
export const ZTimeLogExportQuery = ZTimeLogQuery.extend({ delimiter: ZCsvDelimiter });
export const ZTimeLogList = z.object({ results: z.array(ZTimeLog) });
export type TTimeLogList = z.infer<typeof ZTimeLogList>;

/** GET timer/: the caller's running timer, or null. */
export const ZTimer = z.object({
  task: z.object({ id: z.number().int(), unit: z.string(), stage: z.string() }),
  project: z.object({ id: z.number().int(), name: z.string() }),
  started_at: z.string(),
});
export type TTimer = z.infer<typeof ZTimer>;
export const ZTimerState = z.object({ timer: ZTimer.nullable() });
export type TTimerState = z.infer<typeof ZTimerState>;
/** POST timer/stop/: the day to log on (the client's today; UTC's when absent) and a note. */
export const ZTimerStop = z.object({ date: ZDay.optional(), note: ZNote.optional() });
/** POST timer/stop/: the log the time went into. */
export const ZTimerStopped = z.object({ log: ZTimeLog });

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
