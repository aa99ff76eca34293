import { describe, expect, it } from 'vitest';
import { addDays, formatHours, parseHours, startOfWeek, weekDays } from './week';

/** The timesheet's days and cells (docs/time.md). */
describe('week', () => {
  it('starts on Sunday or Monday, across months and years', () => {
    expect(startOfWeek('2026-11-28', 0)).toBe('2026-11-22'); // a Saturday
    expect(startOfWeek('2026-11-28', 1)).toBe('2026-11-23');
    expect(startOfWeek('2026-11-22', 1)).toBe('2026-11-16'); // a Sunday, in a Monday week
    expect(startOfWeek('2027-01-01', 1)).toBe('2026-12-28');
    expect(weekDays('2026-12-28')).toEqual([
      '2026-12-28',
      '2026-12-29',
      '2026-12-30',
      '2026-12-31',
      '2027-01-01',
      '2027-01-02',
      '2027-01-03',
    ]);
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30'); // no daylight-saving shift
  });

  it('reads what a cell holds: decimals with a point or a comma, empty as 0, anything else as null', () => {
    expect(parseHours('1.5')).toBe(1.5);
    expect(parseHours(' 2,25 ')).toBe(2.25);
    expect(parseHours('.5')).toBe(0.5);
    expect(parseHours('')).toBe(0);
    expect(parseHours('1h')).toBeNull();
    expect(parseHours('-1')).toBeNull();
    expect(parseHours('1.2.3')).toBeNull();
    expect(formatHours(3.5)).toBe('3.5');
    expect(formatHours(0.1 + 0.2)).toBe('0.3');
  });
});
