import { describe, expect, it, test } from 'vitest';
import {
  dateFormat,
  formatCalendar,
  formatDate,
  formatTime,
  isTimeZone,
  weekStart,
  zonedInstant,
  type TCalendarLabel,
} from './dates';

const label = (value: TCalendarLabel) => `<${value}>`;
/** A local date at noon, so no time zone moves it across midnight. */
const day = (year: number, month: number, date: number, hour = 12) => new Date(year, month - 1, date, hour);

describe('formatDate', () => {
  it('writes mm/dd/yy in English and dd.mm.yy in Russian', () => {
    const value = day(2024, 3, 7);
    expect(formatDate(value, 'en')).toBe('03/07/24');
    expect(formatDate(value, 'ru')).toBe('07.03.24');
  });

  it('names the same format for date pickers', () => {
    expect(dateFormat('en')).toBe('MM/DD/YY');
    expect(dateFormat('ru')).toBe('DD.MM.YY');
  });

  it('uses a 12-hour clock in English and a 24-hour clock in Russian', () => {
    const value = day(2024, 3, 7, 15);
    expect(formatTime(value, 'en')).toBe('3:00 PM');
    expect(formatTime(value, 'ru')).toBe('15:00');
  });
});

describe('weekStart', () => {
  it('starts the week on Sunday in English and Monday in Russian', () => {
    expect(weekStart('en')).toBe(0);
    expect(weekStart('ru')).toBe(1);
  });
});

describe('formatCalendar', () => {
  const now = day(2024, 5, 15, 9);

  it.each([
    ['Today', day(2024, 5, 15, 23)],
    ['Yesterday', day(2024, 5, 14, 1)],
    ['Tomorrow', day(2024, 5, 16, 0)],
  ] as const)('labels %s through the translate function', (expected, value) => {
    expect(formatCalendar(value, 'en', label, now)).toBe(`<${expected}>`);
    expect(formatCalendar(value, 'ru', label, now)).toBe(`<${expected}>`);
  });

  it('shows the month and day for other days of the same year', () => {
    expect(formatCalendar(day(2024, 5, 20), 'en', label, now)).toBe('May 20');
    expect(formatCalendar(day(2024, 5, 20), 'ru', label, now)).toBe('20 мая');
    expect(formatCalendar(day(2024, 1, 1), 'en', label, now)).toBe('Jan 1');
    expect(formatCalendar(day(2024, 12, 31), 'en', label, now)).toBe('Dec 31');
  });

  it('shows the full short date in another year', () => {
    expect(formatCalendar(day(2023, 5, 20), 'en', label, now)).toBe('05/20/23');
    expect(formatCalendar(day(2025, 5, 20), 'ru', label, now)).toBe('20.05.25');
  });

  it('crosses the year boundary for yesterday and tomorrow', () => {
    expect(formatCalendar(day(2025, 1, 1), 'en', label, day(2024, 12, 31))).toBe('<Tomorrow>');
    expect(formatCalendar(day(2024, 12, 31), 'en', label, day(2025, 1, 1))).toBe('<Yesterday>');
  });

  it('gives the full date two days across the year boundary', () => {
    expect(formatCalendar(day(2025, 1, 2), 'en', label, day(2024, 12, 31))).toBe('01/02/25');
    expect(formatCalendar(day(2024, 12, 30), 'ru', label, day(2025, 1, 1))).toBe('30.12.24');
  });

  it('treats the calendar day, not 24 hours, as the unit', () => {
    expect(formatCalendar(day(2024, 5, 16, 0), 'en', label, day(2024, 5, 15, 23))).toBe('<Tomorrow>');
    expect(formatCalendar(day(2024, 5, 17, 0), 'en', label, day(2024, 5, 15, 23))).toBe('May 17');
  });
});

describe('time zones', () => {
  test('names are checked against the runtime', () => {
    expect(isTimeZone('Asia/Tokyo')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });

  test('Today and Tomorrow turn at the midnight of the given zone', () => {
    const t = (text: TCalendarLabel) => text;
    const now = '2026-11-23T20:00:00Z'; // 05:00 on the 24th in Tokyo
    expect(formatCalendar('2026-11-23T21:00:00Z', 'en', t, now, 'UTC')).toBe('Today');
    expect(formatCalendar('2026-11-23T21:00:00Z', 'en', t, now, 'Asia/Tokyo')).toBe('Today');
    expect(formatCalendar('2026-11-24T16:00:00Z', 'en', t, now, 'Asia/Tokyo')).toBe('Tomorrow');
    expect(formatCalendar('2026-11-24T16:00:00Z', 'en', t, now, 'UTC')).toBe('Tomorrow');
    expect(formatCalendar('2026-11-23T10:00:00Z', 'en', t, now, 'Asia/Tokyo')).toBe('Yesterday');
    expect(formatTime('2026-11-23T22:00:00Z', 'ru', 'Asia/Tokyo')).toBe('07:00');
    expect(formatDate('2026-11-23T22:00:00Z', 'ru', 'Asia/Tokyo')).toBe('24.11.26');
  });

  test('a wall-clock time names different instants across a DST change', () => {
    // Europe/Berlin leaves summer time on 2026-10-25: 07:00 is 05:00Z the day before, 06:00Z after.
    expect(zonedInstant({ year: 2026, month: 10, day: 24, hour: 7 }, 'Europe/Berlin').toISOString()).toBe(
      '2026-10-24T05:00:00.000Z',
    );
    expect(zonedInstant({ year: 2026, month: 10, day: 26, hour: 7 }, 'Europe/Berlin').toISOString()).toBe(
      '2026-10-26T06:00:00.000Z',
    );
    expect(zonedInstant({ year: 2026, month: 11, day: 24, hour: 7 }, 'Asia/Tokyo').toISOString()).toBe(
      '2026-11-23T22:00:00.000Z',
    );
  });
});
