import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { DefaultLanguage, resolveLanguage, StorageKeys, type TLanguage } from '@stageline/shared';
import { en } from '@stageline/shared/i18n/en';
import { i18nOptions } from '@stageline/shared/i18n/options';

export const i18n = i18next.createInstance();

/** The languages not bundled with the app, each loaded as a chunk of its own when first used. */
const loaders: Record<Exclude<TLanguage, typeof DefaultLanguage>, () => Promise<Record<string, string>>> = {
  ru: async () => (await import('@stageline/shared/i18n/ru')).ru,
};

/**
 * An i18next backend that imports a language's chunk: English is bundled (and is the fallback), so
 * a reader of English never downloads Russian (docs/decisions.md, "Web speed").
 */
const languageChunks: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const load = loaders[resolveLanguage(language) as keyof typeof loaders] as (() => Promise<ResourceKey>) | undefined;
    if (!load) return callback(null, {});
    load().then(
      (resources) => callback(null, resources),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null),
    );
  },
};

let started: Promise<void> | null = null;

/**
 * The page's language, and dayjs's: dayjs comes in its own chunk, fetched at once but not part of
 * the first load (only screens that show dates use it, and they load after), so its locale is set
 * when it arrives (docs/decisions.md, entry 106).
 */
function applyLanguage(language: string) {
  const resolved = resolveLanguage(language);
  document.documentElement.lang = resolved;
  void import('./dayjs-locale').then(({ setDayjsLocale }) => setDayjsLocale(resolved));
}

/**
 * Starts i18next: the stored `language` choice, else the browser's languages, each reduced to a
 * supported one (ru-RU → ru, de → en). English is bundled and ready at once; another language is
 * ready when `i18nReady()` resolves (and `changeLanguage` resolves once its chunk is in).
 */
export function initI18n(): typeof i18n {
  if (started) return i18n;
  i18n.on('languageChanged', applyLanguage);
  started = i18n
    .use(LanguageDetector)
    .use(languageChunks)
    .use(initReactI18next)
    .init({
      ...i18nOptions,
      // Keys are the English text: the build leaves out the entries that map a key to itself.
      resources: { [DefaultLanguage]: { translation: en } },
      partialBundledLanguages: true,
      initAsync: false,
      detection: {
        order: ['localStorage', 'navigator'],
        lookupLocalStorage: StorageKeys.language,
        caches: ['localStorage'],
        convertDetectedLanguage: (lng: string) => resolveLanguage(lng),
      },
    })
    .then(() => undefined);
  return i18n;
}

/** Resolves when the language in use has its translations (at once for English). */
export function i18nReady(): Promise<void> {
  initI18n();
  return started ?? Promise.resolve();
}

/** The language in use, always one we support. */
export function currentLanguage(): TLanguage {
  return resolveLanguage(i18n.resolvedLanguage ?? i18n.language);
}
