import type { InitOptions } from 'i18next';
import { DefaultLanguage, Languages } from '../languages';
import en from './locales/en.json';
import ru from './locales/ru.json';

/**
 * Translations shared by the server (error messages, e-mails) and the web app. Keys are the English
 * source strings of product.md, so `en.json` maps most keys to themselves and holds the plural forms.
 */
export const resources = {
  en: { translation: en },
  ru: { translation: ru },
} as const;

/** The i18next options both sides start from. */
export const baseI18nOptions = {
  resources,
  supportedLngs: [...Languages],
  nonExplicitSupportedLngs: true,
  load: 'languageOnly',
  fallbackLng: DefaultLanguage,
  keySeparator: false,
  nsSeparator: false,
  returnNull: false,
  returnEmptyString: false,
  interpolation: { escapeValue: false },
} satisfies InitOptions;
