import type { InitOptions } from 'i18next';
import { en } from './locales-en';
import { ru } from './locales-ru';
import { i18nOptions } from './options';

export { en, i18nOptions, ru };

export const resources = {
  en: { translation: en },
  ru: { translation: ru },
} as const;

/** The options with every language's translations, for the server and the prerenderer. */
export const baseI18nOptions = { ...i18nOptions, resources } satisfies InitOptions;
