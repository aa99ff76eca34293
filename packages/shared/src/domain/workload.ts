import type { WorkCalendar } from './calendar';

/**
 * Workload (docs/schedule.md, "Workload"): each person's estimated hours of open tasks per week
 * against their capacity. A task's estimate is shared by its assignees and spread evenly over the
 * working days (theirs: holidays and days off excluded) from its start (or today, whichever is
 * later) to its due date; without a due date, or one already past, over as many working days as
 * the estimate needs. Capacity is the working day's hours times the person's working days that
 * week. Pure: the server feeds it rows. Days are day numbers (`dayOf`); weeks start on Monday.
 */

export type TWorkloadTask = {
  id: number;
  people: readonly number[];
  estimateHours: number | null;
  start: number | null;
  due: number | null;
};

export type TWorkloadCell = { hours: number; capacity: number; tasks: number[] };

/** Monday of the week of `day` (1970-01-01, day 0, was a Thursday). */
export function mondayOf(day: number): number {
  return day - ((((day + 3) % 7) + 7) % 7);
}

export function computeWorkload({
  people,
  tasks,
  calendar,
  hoursPerDay,
  today,
  firstWeek,
  weeks,
}: {
  people: readonly number[];
  tasks: readonly TWorkloadTask[];
  calendar: WorkCalendar;
  hoursPerDay: number;
  today: number;
  /** A Monday. */
  firstWeek: number;
  weeks: number;
}): Map<number, TWorkloadCell[]> {
  const end = firstWeek + weeks * 7 - 1;
  const result = new Map<number, TWorkloadCell[]>();
  for (const person of people) {
    const cells: TWorkloadCell[] = [];
    for (let w = 0; w < weeks; w++) {
      const monday = firstWeek + w * 7;
      cells.push({ hours: 0, capacity: calendar.between(monday, monday + 6, person) * hoursPerDay, tasks: [] });
    }
    result.set(person, cells);
  }
  for (const task of tasks) {
    if (!task.estimateHours || task.people.length === 0) continue;
    const share = task.estimateHours / task.people.length;
    for (const person of task.people) {
      const cells = result.get(person);
      if (!cells) continue;
      const start = calendar.onOrAfter(Math.max(today, task.start ?? today), person);
      const last =
        task.due !== null && task.due >= start
          ? task.due
          : calendar.finishOf(start, Math.ceil(share / hoursPerDay), person);
      const working = calendar.between(start, last, person);
      if (working === 0) continue;
      const perDay = share / working;
      for (let day = Math.max(start, firstWeek); day <= Math.min(last, end); day++) {
        if (!calendar.isWorking(day, person)) continue;
        const cell = cells[Math.floor((day - firstWeek) / 7)]!;
        cell.hours += perDay;
        if (cell.tasks[cell.tasks.length - 1] !== task.id) cell.tasks.push(task.id);
      }
    }
  }
  for (const cells of result.values()) for (const cell of cells) cell.hours = Math.round(cell.hours * 100) / 100;
  return result;
}
