import { z } from 'zod';
import { ZId, ZName } from '../validation';
import { TaskStatuses } from '../domain/task-vocabulary';
import { ZReportDay } from './reports';

/**
 * The schedule (issue 34; docs/schedule.md): a workspace's calendar of working days, people's days
 * off, a project's milestones, the forecast along the diagram and the personal iCalendar feed.
 * Days on the wire are calendar days `YYYY-MM-DD` (UTC).
 */

export const ScheduleLimits = {
  /** Holidays of a workspace, days off of a person: one list each, replaced as a whole. */
  days: 1000,
  /** Units one milestone names. */
  milestoneUnits: 10_000,
  /** Milestones of a project. */
  milestones: 500,
  /** A stage's default duration, in working days. */
  durationDays: 3650,
} as const;

/** Messages of the schedule's refusals (i18n keys, translated in `schedule.json`). */
export const ScheduleMessages = {
  startAfterDue: 'The start cannot be after the due date.',
  unitsOutsideProject: 'Some of these units are not in this project.',
  tooManyMilestones: 'A project can have at most {{max}} milestones.',
} as const;

export const ZDay = ZReportDay;
const ZWeekday = z.number().int().min(1).max(7);

/** GET workspaces/{id}/calendar/ */
export const ZWorkCalendar = z.object({
  /** ISO weekdays that are working days: 1 Monday … 7 Sunday. */
  working_days: z.array(ZWeekday),
  holidays: z.array(z.object({ date: z.string(), name: z.string() })),
  /** Every member's days off (planning needs them all). */
  days_off: z.array(z.object({ person: z.number().int(), date: z.string() })),
});
export type TWorkCalendar = z.infer<typeof ZWorkCalendar>;

/** PUT workspaces/{id}/calendar/ (Admins): the working weekdays and the holidays, each replaced when given. */
export const ZWorkCalendarUpdate = z
  .object({
    working_days: z.array(ZWeekday).min(1).max(7),
    holidays: z.array(z.object({ date: ZDay, name: z.string().trim().max(200).default('') })).max(ScheduleLimits.days),
  })
  .partial();
export type TWorkCalendarUpdate = z.infer<typeof ZWorkCalendarUpdate>;

/** PUT workspaces/{id}/days-off/{user}/: a person's days off, replaced as a whole. */
export const ZDaysOff = z.object({ dates: z.array(ZDay).max(ScheduleLimits.days) });
export type TDaysOff = z.infer<typeof ZDaysOff>;
export const ZDaysOffParams = z.object({ id: ZId, user: ZId });

export const ZMilestone = z.object({
  id: z.number().int(),
  project: z.number().int(),
  name: z.string(),
  date: z.string(),
  /** The units that must be done by its date; empty: every unit of the project. */
  units: z.array(z.number().int()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TMilestone = z.infer<typeof ZMilestone>;
export const ZMilestoneList = z.object({ results: z.array(ZMilestone) });
export type TMilestoneList = z.infer<typeof ZMilestoneList>;
export const ZMilestoneCreate = z.object({
  name: ZName,
  date: ZDay,
  units: z.array(ZId).max(ScheduleLimits.milestoneUnits).default([]),
});
export type TMilestoneCreate = z.infer<typeof ZMilestoneCreate>;
export const ZMilestonePatch = z.object({
  name: ZName.optional(),
  date: ZDay.optional(),
  units: z.array(ZId).max(ScheduleLimits.milestoneUnits).optional(),
});
export type TMilestonePatch = z.infer<typeof ZMilestonePatch>;

export const ZForecastQuery = z.object({ pipeline: ZId.optional().describe('Only the units of this pipeline') });

export const ZForecastTask = z.object({
  id: z.number().int(),
  stage: z.number().int(),
  status: z.enum(TaskStatuses),
  /** The task's planned start and due date as set (own or the stage's), or null. */
  start_date: z.string().nullable(),
  due_date: z.string().nullable(),
  estimate_hours: z.number().nullable(),
  /** The forecast: earliest start and finish (null for done tasks). */
  forecast_start: z.string().nullable(),
  forecast_finish: z.string().nullable(),
  /** Working days the forecast passes the due date (0: on time). */
  late_by: z.number().int(),
  /** The input stage whose finish decides the start, or null. */
  waits_for: z.number().int().nullable(),
});
export type TForecastTaskDto = z.infer<typeof ZForecastTask>;

export const ZForecastUnit = z.object({
  id: z.number().int(),
  name: z.string(),
  pipeline: z.number().int(),
  /** When its last open task finishes; null when all are done. */
  finish: z.string().nullable(),
  late_by: z.number().int(),
  /** The late task's stage and the stage at the head of its chain ("waiting on Rigging"). */
  late_stage: z.number().int().nullable(),
  waiting_on: z.number().int().nullable(),
  critical_path: z.array(z.number().int()),
  tasks: z.array(ZForecastTask),
});
export type TForecastUnitDto = z.infer<typeof ZForecastUnit>;

/** GET projects/{id}/forecast/ */
export const ZProjectForecast = z.object({
  today: z.string(),
  /** Stages in each pipeline's order (topological, then by position). */
  stages: z.array(
    z.object({ id: z.number().int(), name: z.string(), pipeline: z.number().int(), inputs: z.array(z.number().int()) }),
  ),
  units: z.array(ZForecastUnit),
  milestones: z.array(
    ZMilestone.extend({
      forecast: z.string().nullable(),
      at_risk: z.boolean(),
      late_units: z.array(z.number().int()),
    }),
  ),
  /** The unit that finishes last and its chain of stages. */
  critical: z.object({ unit: z.number().int(), stages: z.array(z.number().int()) }).nullable(),
  /** What the caller may change: tasks' dates, milestones. */
  abilities: z.object({ plan: z.boolean(), manage_milestones: z.boolean() }),
});
export type TProjectForecast = z.infer<typeof ZProjectForecast>;

/** GET / POST / DELETE me/calendar-feed/: the personal iCalendar feed. */
export const ZCalendarFeedState = z.object({
  active: z.boolean(),
  created_at: z.string().nullable(),
  /** The secret URL: only in the answer of POST, which makes a new one (the old stops working). */
  url: z.string().optional(),
});
export type TCalendarFeedState = z.infer<typeof ZCalendarFeedState>;

/** GET workspaces/{id}/workload/?from=&weeks= */
export const ZWorkloadQuery = z.object({
  from: ZDay.optional().describe('A day of the first week (default: this week); weeks start on Monday'),
  weeks: z.coerce.number().int().min(1).max(26).default(8).describe('How many weeks (1–26, default 8)'),
});
export const ZWorkload = z.object({
  /** The Mondays of the weeks, in order. */
  weeks: z.array(z.string()),
  hours_per_day: z.number(),
  people: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      username: z.string(),
      /** One cell a week: estimated hours of open tasks, capacity, and the tasks counted. */
      weeks: z.array(z.object({ hours: z.number(), capacity: z.number(), tasks: z.array(z.number().int()) })),
    }),
  ),
});
export type TWorkload = z.infer<typeof ZWorkload>;
