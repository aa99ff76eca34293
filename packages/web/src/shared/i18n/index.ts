import dayjs from 'dayjs';
import 'dayjs/locale/ru.js';
import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { resolveLanguage, StorageKeys, type TLanguage } from '@stageline/shared';
import { baseI18nOptions } from '@stageline/shared/i18n';

export const i18n = i18next.createInstance();

function applyLanguage(language: string) {
  const resolved = resolveLanguage(language);
  document.documentElement.lang = resolved;
  dayjs.locale(resolved);
}

/**
 * Starts i18next: the stored `language` choice, else the browser's languages, each reduced to a
 * supported one (ru-RU → ru, de → en). Resources are bundled, so it is ready synchronously.
 */
export function initI18n(): typeof i18n {
  if (i18n.isInitialized) return i18n;
  i18n.on('languageChanged', applyLanguage);
  void i18n
    .use(LanguageDetector)
    .use(initReactI18next)
    .init({
      ...baseI18nOptions,
      initAsync: false,
      detection: {
        order: ['localStorage', 'navigator'],
        lookupLocalStorage: StorageKeys.language,
        caches: ['localStorage'],
        convertDetectedLanguage: (lng: string) => resolveLanguage(lng),
      },
    });
  return i18n;
}

/** The language in use, always one we support. */
export function currentLanguage(): TLanguage {
  return resolveLanguage(i18n.resolvedLanguage ?? i18n.language);
}
