import { z } from 'zod';
import { ZId } from '../validation';
import { ZCsvDelimiter } from './csv';
import { EstimateMessages, TimeLimits } from './time-core';

export * from './time-core';

/**
 * Time logs and the timer (docs/time.md, issue 33), as `@stageline/shared/time` (with everything of
 * `time-core.ts`): the server validates with them, the timesheet checks its cells with them.
 */

export const TimeMessages = {
  ...EstimateMessages,
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

/** A timer's elapsed milliseconds as logged hours: rounded up to a quarter hour, at least one quarter. */
export function timerHours(elapsedMs: number): number {
  const quarters = Math.max(1, Math.ceil(elapsedMs / (TimeLimits.timerStep * 3_600_000) - 1e-9));
  return quarters * TimeLimits.timerStep;
}

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
