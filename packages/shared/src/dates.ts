import dayjs, { type ConfigType } from 'dayjs';
import 'dayjs/locale/ru.js';
import type { TLanguage } from './languages';

/**
 * Date presentation of product.md §9: short dates as mm/dd/yy (en) or dd.mm.yy (ru), weeks that
 * start on Sunday (en) or Monday (ru), and calendar labels for the days around today.
 */
const formats: Record<TLanguage, { date: string; monthDay: string; time: string; weekStart: 0 | 1 }> = {
  en: { date: 'MM/DD/YY', monthDay: 'MMM D', time: 'h:mm A', weekStart: 0 },
  ru: { date: 'DD.MM.YY', monthDay: 'D MMM', time: 'HH:mm', weekStart: 1 },
};

/** The first day of the week for a language: 0 is Sunday, 1 is Monday. */
export function weekStart(language: TLanguage): 0 | 1 {
  return formats[language].weekStart;
}

/** The short date format string, for date pickers that take one. */
export function dateFormat(language: TLanguage): string {
  return formats[language].date;
}

/** A date as mm/dd/yy or dd.mm.yy. */
export function formatDate(value: ConfigType, language: TLanguage): string {
  return dayjs(value).locale(language).format(formats[language].date);
}

/** A time of day in the language's clock (12-hour for en, 24-hour for ru). */
export function formatTime(value: ConfigType, language: TLanguage): string {
  return dayjs(value).locale(language).format(formats[language].time);
}

export type TCalendarLabel = 'Yesterday' | 'Today' | 'Tomorrow';

/**
 * A date as people say it: 'Yesterday', 'Today' or 'Tomorrow' (returned as i18n keys for the
 * caller's `t`), the month and day within the current year, the full short date otherwise.
 */
export function formatCalendar(
  value: ConfigType,
  language: TLanguage,
  translate: (label: TCalendarLabel) => string,
  now: ConfigType = undefined,
): string {
  const day = dayjs(value).startOf('day');
  const today = dayjs(now).startOf('day');
  const diff = day.diff(today, 'day');
  if (diff === 0) return translate('Today');
  if (diff === -1) return translate('Yesterday');
  if (diff === 1) return translate('Tomorrow');
  if (day.year() === today.year()) return dayjs(value).locale(language).format(formats[language].monthDay);
  return formatDate(value, language);
}
