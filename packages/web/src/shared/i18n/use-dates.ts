import { useTranslation } from 'react-i18next';
import { formatCalendar, formatDate, formatTime, fromWallClock, toWallClock, weekStart } from '@stageline/shared/dates';
import { resolveLanguage } from '@stageline/shared';
import { useTimeZoneStore } from '../lib/time-zone';

/**
 * Date helpers bound to the current language and the user's time zone: "Today" turns at their
 * midnight and times read their clock, whatever the browser's zone (docs/decisions.md). Pickers show
 * wall-clock Dates: `toPicker` before, `fromPicker` after.
 */
export function useDates() {
  const { t, i18n } = useTranslation();
  const language = resolveLanguage(i18n.resolvedLanguage);
  const timeZone = useTimeZoneStore((state) => state.timeZone);
  return {
    language,
    timeZone,
    weekStart: weekStart(language),
    formatDate: (value: Date | string | number) => formatDate(value, language, timeZone),
    formatTime: (value: Date | string | number) => formatTime(value, language, timeZone),
    formatCalendar: (value: Date | string | number) =>
      formatCalendar(value, language, (label) => t(label), undefined, timeZone),
    toPicker: (value: Date | string | number) => toWallClock(value, timeZone),
    fromPicker: (picked: Date) => fromWallClock(picked, timeZone),
  };
}
