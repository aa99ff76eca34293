/**
 * Days of the timesheet as `YYYY-MM-DD` strings (docs/time.md): calendar days, computed in UTC so no
 * time zone or daylight-saving change moves them.
 */

const parse = (day: string) => new Date(`${day}T00:00:00Z`);
const format = (date: Date) => date.toISOString().slice(0, 10);

/** `day` moved by `days` (negative: back). */
export function addDays(day: string, days: number): string {
  const date = parse(day);
  date.setUTCDate(date.getUTCDate() + days);
  return format(date);
}

/** The browser's calendar date today. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The first day of the week holding `day`: `weekStart` 0 is Sunday, 1 Monday. */
export function startOfWeek(day: string, weekStart: 0 | 1): string {
  const weekday = parse(day).getUTCDay();
  return addDays(day, -((weekday - weekStart + 7) % 7));
}

/** The seven days of the week starting on `start`. */
export function weekDays(start: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(start, i));
}

/** Hours as people read them: up to two decimals, no trailing zeros. */
export function formatHours(hours: number): string {
  return String(Math.round(hours * 100) / 100);
}

/** What a cell holds as hours: '' is 0; a comma is a decimal point; null when it is not a number. */
export function parseHours(text: string): number | null {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return 0;
  if (!/^\d*\.?\d+$|^\d+\.$/.test(trimmed)) return null;
  return Number(trimmed);
}
