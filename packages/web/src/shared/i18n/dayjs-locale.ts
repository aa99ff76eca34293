import dayjs from 'dayjs';
import 'dayjs/locale/ru.js';
import type { TLanguage } from '@stageline/shared';

/** dayjs's global locale, for what formats dates without naming one (the date pickers' calendars). */
export function setDayjsLocale(language: TLanguage): void {
  dayjs.locale(language);
}
