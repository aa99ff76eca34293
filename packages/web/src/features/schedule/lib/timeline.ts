import { dayOf, isoDay } from '@stageline/shared';
import { type TForecastTaskDto, type TProjectForecast } from '@stageline/shared/schedule';

/**
 * The timeline's geometry (docs/schedule.md, "Timeline"), pure so it is tested without a browser:
 * which days the axis covers, where each task's bar lies, and what a move or a resize by some days
 * sends to the API.
 */

/** Pixels per day on the axis. */
export const DayWidth = 28;
/** Days shown before the earliest date and after the latest. */
const Margin = 3;

export type TBar = {
  task: number;
  stage: number;
  /** First and last day (day numbers, both included). */
  start: number;
  end: number;
  /** Whether the bar shows the task's own dates (start and due) or the forecast. */
  planned: boolean;
  late: number;
};

/**
 * A task's bar: its own start to its due date when it has both (in order); else its start or due
 * date completed by the forecast; else the forecast alone. Done tasks without dates have no bar.
 */
export function barOf(task: TForecastTaskDto): TBar | null {
  const own = (value: string | null) => (value === null ? null : dayOf(value));
  const start = own(task.start_date) ?? own(task.forecast_start);
  const end = own(task.due_date) ?? own(task.forecast_finish);
  const late = task.late_by;
  if (start !== null && end !== null && end >= start)
    return {
      task: task.id,
      stage: task.stage,
      start,
      end,
      planned: task.start_date !== null && task.due_date !== null,
      late,
    };
  const fs = own(task.forecast_start);
  const ff = own(task.forecast_finish);
  if (fs !== null && ff !== null) return { task: task.id, stage: task.stage, start: fs, end: ff, planned: false, late };
  if (end !== null) return { task: task.id, stage: task.stage, start: end, end, planned: false, late };
  return null;
}

/** The first and last day the axis shows: every bar, milestone and today, with a margin. */
export function axisOf(forecast: TProjectForecast): { first: number; last: number } {
  const today = dayOf(forecast.today);
  let first = today;
  let last = today + 14;
  for (const unit of forecast.units) {
    for (const task of unit.tasks) {
      const bar = barOf(task);
      if (!bar) continue;
      if (bar.start < first) first = bar.start;
      if (bar.end > last) last = bar.end;
    }
  }
  for (const milestone of forecast.milestones) {
    const day = dayOf(milestone.date);
    if (day < first) first = day;
    if (day > last) last = day;
  }
  return { first: first - Margin, last: last + Margin };
}

/** The patch that moves a bar by `days` (both ends) or resizes it (its end only, never before its start). */
export function shiftPatch(bar: TBar, days: number, resize: boolean): { start_date: string; due_date: string } | null {
  const start = resize ? bar.start : bar.start + days;
  const end = bar.end + days;
  if (end < start || days === 0) return null;
  return { start_date: isoDay(start), due_date: `${isoDay(end)}T00:00:00.000Z` };
}
