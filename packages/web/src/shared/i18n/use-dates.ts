import { useTranslation } from 'react-i18next';
import { formatCalendar, formatDate, formatTime, weekStart } from '@stageline/shared/dates';
import { resolveLanguage } from '@stageline/shared';

/** Date helpers bound to the current language (product.md §9). */
export function useDates() {
  const { t, i18n } = useTranslation();
  const language = resolveLanguage(i18n.resolvedLanguage);
  return {
    language,
    weekStart: weekStart(language),
    formatDate: (value: Date | string | number) => formatDate(value, language),
    formatTime: (value: Date | string | number) => formatTime(value, language),
    formatCalendar: (value: Date | string | number) => formatCalendar(value, language, (label) => t(label)),
  };
}
