import dayjs, { type ConfigType, type Dayjs } from 'dayjs';
import 'dayjs/locale/ru.js';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { dateFormats as formats } from './date-formats';
import type { TLanguage } from './languages';

dayjs.extend(utc);
dayjs.extend(timezone);

export { isTimeZone } from './time-zones';
export { dateFormat, weekStart } from './date-formats';

/** A moment seen on the wall clock of `timeZone` (the runtime's own zone when none is given). */
export function inZone(value: ConfigType, timeZone?: string | null): Dayjs {
  return timeZone ? dayjs(value).tz(timeZone) : dayjs(value);
}

/** The calendar date of an instant in `timeZone` (month 1–12). */
export function calendarDate(value: ConfigType, timeZone: string): { year: number; month: number; day: number } {
  const local = inZone(value, timeZone);
  return { year: local.year(), month: local.month() + 1, day: local.date() };
}

/** The instant a wall-clock time of `timeZone` names, e.g. 07:00 on 2026-11-24 in Asia/Tokyo. */
export function zonedInstant(
  local: { year: number; month: number; day: number; hour?: number; minute?: number },
  timeZone: string,
): Date {
  const pad = (n: number) => String(n).padStart(2, '0');
  const text = `${local.year}-${pad(local.month)}-${pad(local.day)} ${pad(local.hour ?? 0)}:${pad(local.minute ?? 0)}`;
  return dayjs.tz(text, timeZone).toDate();
}

/**
 * For date pickers, which show the browser's wall clock: the instant as a Date whose local fields
 * read the wall clock of `timeZone` (`fromWallClock` turns a picked Date back into the instant).
 */
export function toWallClock(value: ConfigType, timeZone: string): Date {
  const local = inZone(value, timeZone);
  return new Date(local.year(), local.month(), local.date(), local.hour(), local.minute(), local.second());
}

/** The instant the local fields of `picked` name on the wall clock of `timeZone`. */
export function fromWallClock(picked: Date, timeZone: string): Date {
  return zonedInstant(
    {
      year: picked.getFullYear(),
      month: picked.getMonth() + 1,
      day: picked.getDate(),
      hour: picked.getHours(),
      minute: picked.getMinutes(),
    },
    timeZone,
  );
}

/** A date as mm/dd/yy or dd.mm.yy, on the calendar of `timeZone` (the user's; else the runtime's). */
export function formatDate(value: ConfigType, language: TLanguage, timeZone?: string | null): string {
  return inZone(value, timeZone).locale(language).format(formats[language].date);
}

/** A time of day in the language's clock (12-hour for en, 24-hour for ru), in `timeZone`. */
export function formatTime(value: ConfigType, language: TLanguage, timeZone?: string | null): string {
  return inZone(value, timeZone).locale(language).format(formats[language].time);
}

export type TCalendarLabel = 'Yesterday' | 'Today' | 'Tomorrow';

/**
 * A date as people say it: 'Yesterday', 'Today' or 'Tomorrow' (returned as i18n keys for the
 * caller's `t`), the month and day within the current year, the full short date otherwise — all on
 * the calendar of `timeZone`, so "Today" turns at the user's midnight, not the server's or the
 * browser's.
 */
export function formatCalendar(
  value: ConfigType,
  language: TLanguage,
  translate: (label: TCalendarLabel) => string,
  now: ConfigType = undefined,
  timeZone?: string | null,
): string {
  const local = inZone(value, timeZone);
  const day = dayjs(local.format('YYYY-MM-DD'));
  const today = dayjs(inZone(now, timeZone).format('YYYY-MM-DD'));
  const diff = day.diff(today, 'day');
  if (diff === 0) return translate('Today');
  if (diff === -1) return translate('Yesterday');
  if (diff === 1) return translate('Tomorrow');
  if (day.year() === today.year()) return local.locale(language).format(formats[language].monthDay);
  return formatDate(value, language, timeZone);
}
