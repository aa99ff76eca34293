import { z } from 'zod';
import { ZId } from '../validation';

/**
 * Reports of a project (issue 33, item 4; docs/reports.md says what each number means). Every
 * report takes the same filters; days are calendar days in UTC, weeks start on Monday.
 */

/** The longest date range a report covers, in days (two years). */
export const ReportMaxDays = 731;
/** The range a report covers when none is given: the last 30 days, today included. */
export const ReportDefaultDays = 30;

/** A calendar day, `YYYY-MM-DD`, that exists. */
export const ZReportDay = z
  .string()
  .regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, 'Enter a date as YYYY-MM-DD.')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, 'Enter a date as YYYY-MM-DD.');

export const ZReportQuery = z.object({
  pipeline: ZId.optional().describe('Only this pipeline of the project'),
  stage: ZId.optional().describe('Only this stage (of the project, and of `pipeline` when given)'),
  person: ZId.optional().describe(
    'Only work this person submitted for review (history reports), is assigned (overdue and blocked) or logged (estimate vs spent)',
  ),
  from: ZReportDay.optional().describe('First day, UTC (default: 29 days before `to`)'),
  to: ZReportDay.optional().describe('Last day, UTC, included (default: today)'),
});
export type TReportQuery = z.infer<typeof ZReportQuery>;

const ZRef = z.object({ id: z.number().int(), name: z.string() });
const ZRate = z.number().nullable().describe('accepted / rounds, from 0 to 1; null without rounds');

/** GET projects/{id}/reports/burnup/ */
export const ZBurnupReport = z.object({
  from: z.string(),
  to: z.string(),
  /** Every day of the range, in order. */
  days: z.array(z.string()),
  stages: z.array(
    z.object({
      stage: ZRef,
      pipeline: ZRef,
      /** Tasks done at the end of each day of `days`. */
      done: z.array(z.number().int()),
      /** Tasks that existed at the end of each day of `days`. */
      scope: z.array(z.number().int()),
      /** Tasks that entered done during each week of `weeks`. */
      throughput: z.array(z.number().int()),
    }),
  ),
  /** The Mondays of the weeks the range touches. */
  weeks: z.array(z.string()),
});
export type TBurnupReport = z.infer<typeof ZBurnupReport>;

const ZFirstPassRow = { rounds: z.number().int(), accepted: z.number().int(), rate: ZRate };

/** GET projects/{id}/reports/first_pass/ */
export const ZFirstPassReport = z.object({
  from: z.string(),
  to: z.string(),
  total: z.object(ZFirstPassRow),
  stages: z.array(z.object({ stage: ZRef, pipeline: ZRef, ...ZFirstPassRow })),
  people: z.array(z.object({ person: ZRef, ...ZFirstPassRow })),
});
export type TFirstPassReport = z.infer<typeof ZFirstPassReport>;

const ZRoundsRow = {
  tasks: z.number().int().describe('Tasks that reached done in the range after at least one review round'),
  rounds_mean: z.number().nullable(),
  rounds_p90: z.number().nullable(),
  review_hours: z.number().nullable().describe('Mean hours a task spent in review (stays begun in the range)'),
  edit_hours: z.number().nullable().describe('Mean hours a task spent in edit (stays begun in the range)'),
};

/** GET projects/{id}/reports/rounds/ */
export const ZRoundsReport = z.object({
  from: z.string(),
  to: z.string(),
  total: z.object(ZRoundsRow),
  stages: z.array(z.object({ stage: ZRef, pipeline: ZRef, ...ZRoundsRow })),
});
export type TRoundsReport = z.infer<typeof ZRoundsReport>;

/** GET projects/{id}/reports/blocking/: now, whatever the date range. */
export const ZBlockingReport = z.object({
  stages: z.array(
    z.object({
      stage: ZRef,
      pipeline: ZRef,
      open: z.number().int().describe('Tasks not done'),
      overdue: z.number().int(),
      blocked: z.number().int().describe('Tasks not done whose predecessor stages are not all done'),
      blocked_by: z.array(z.object({ stage: ZRef, count: z.number().int() })),
    }),
  ),
});
export type TBlockingReport = z.infer<typeof ZBlockingReport>;

const ZHours = z.number().describe('Hours');
const ZEstimateRow = {
  tasks: z.number().int().describe('Tasks with time logged in the range'),
  estimated_tasks: z.number().int().describe('Of those, tasks with an estimate'),
  estimate_hours: ZHours.describe('Estimates of the estimated tasks (a person: their share, by hours logged)'),
  spent_hours: ZHours.describe('Hours logged on the estimated tasks up to the last day'),
  unestimated_hours: ZHours.describe('Hours logged on tasks without an estimate up to the last day'),
  ratio: z.number().nullable().describe('spent_hours / estimate_hours; null without an estimate'),
};

/** GET projects/{id}/reports/estimates/ */
export const ZEstimatesReport = z.object({
  from: z.string(),
  to: z.string(),
  total: z.object(ZEstimateRow),
  stages: z.array(z.object({ stage: ZRef, pipeline: ZRef, ...ZEstimateRow })),
  people: z.array(z.object({ person: ZRef, ...ZEstimateRow })),
  /** The tasks furthest over their estimate (at most `ReportOverrunsShown`), the largest first. */
  overruns: z.array(
    z.object({
      task: z.object({ id: z.number().int() }),
      unit: ZRef,
      stage: ZRef,
      pipeline: ZRef,
      estimate_hours: ZHours,
      spent_hours: ZHours,
      over_hours: ZHours,
    }),
  ),
});
export type TEstimatesReport = z.infer<typeof ZEstimatesReport>;

/** How many of the biggest overruns the estimates report lists. */
export const ReportOverrunsShown = 10;
