import type { TLanguage } from './languages';

/**
 * Date presentation of docs/rules.md §Web: short dates as mm/dd/yy (en) or dd.mm.yy (ru), weeks that
 * start on Sunday (en) or Monday (ru), and calendar labels for the days around today.
 */
export const dateFormats: Record<TLanguage, { date: string; monthDay: string; time: string; weekStart: 0 | 1 }> = {
  en: { date: 'MM/DD/YY', monthDay: 'MMM D', time: 'h:mm A', weekStart: 0 },
  ru: { date: 'DD.MM.YY', monthDay: 'D MMM', time: 'HH:mm', weekStart: 1 },
};

/** The first day of the week for a language: 0 is Sunday, 1 is Monday. */
export function weekStart(language: TLanguage): 0 | 1 {
  return dateFormats[language].weekStart;
}

/** The short date format string, for date pickers that take one. */
export function dateFormat(language: TLanguage): string {
  return dateFormats[language].date;
}
