import { describe, expect, it } from 'vitest';
import { dayOf, isoDay, WorkCalendar } from './calendar';
import { computeWorkload, mondayOf } from './workload';

/** Workload (docs/schedule.md): estimates spread over working days, per week, against capacity. */

const monday = dayOf('2026-11-30');

describe('workload', () => {
  it('finds the Monday of any day', () => {
    expect(isoDay(mondayOf(dayOf('2026-12-06')))).toBe('2026-11-30');
    expect(mondayOf(monday)).toBe(monday);
  });

  it('spreads estimates over working days and weeks, shares them among assignees, counts days off', () => {
    const calendar = new WorkCalendar(
      { workingDays: [1, 2, 3, 4, 5], holidays: ['2026-12-08'], daysOff: new Map([[2, ['2026-12-01']]]) },
      monday,
    );
    const cells = computeWorkload({
      people: [1, 2],
      tasks: [
        // 40 h from Thursday to next Wednesday (5 working days, Tuesday a holiday → Thu, Fri, Mon, Wed).
        { id: 10, people: [1], estimateHours: 40, start: monday + 3, due: monday + 9 },
        // 16 h shared by two, no dates: each 8 h, one day from today.
        { id: 11, people: [1, 2], estimateHours: 16, start: null, due: null },
        // No estimate: nothing to count.
        { id: 12, people: [1], estimateHours: null, start: null, due: null },
      ],
      calendar,
      hoursPerDay: 8,
      today: monday + 1,
      firstWeek: monday,
      weeks: 2,
    });
    const one = cells.get(1)!;
    expect(one.map((c) => c.capacity)).toEqual([40, 32]);
    expect(one[0]).toEqual({ hours: 20 + 8, capacity: 40, tasks: [10, 11] });
    expect(one[1]).toEqual({ hours: 20, capacity: 32, tasks: [10] });
    // Person 2 is off on Tuesday: their share lands on Wednesday.
    expect(cells.get(2)![0]).toEqual({ hours: 8, capacity: 32, tasks: [11] });
  });
});
