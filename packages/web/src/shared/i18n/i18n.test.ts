import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A fresh i18n module, since initI18n() starts the shared instance only once. */
async function freshI18n() {
  vi.resetModules();
  const module = await import('./index');
  module.initI18n();
  await module.i18nReady();
  return module;
}

function browserLanguages(...languages: string[]) {
  vi.spyOn(window.navigator, 'languages', 'get').mockReturnValue(languages);
  vi.spyOn(window.navigator, 'language', 'get').mockReturnValue(languages[0]!);
}

beforeEach(() => {
  localStorage.clear();
  document.documentElement.lang = '';
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('initI18n', () => {
  it('uses the stored choice', async () => {
    browserLanguages('en-US', 'en');
    localStorage.setItem('language', 'ru');
    const { i18n, currentLanguage } = await freshI18n();
    expect(i18n.language).toBe('ru');
    expect(currentLanguage()).toBe('ru');
    expect(i18n.t('Today')).toBe('Сегодня');
    expect(document.documentElement.lang).toBe('ru');
  });

  it("reduces the browser's ru-RU to ru when nothing is stored", async () => {
    browserLanguages('ru-RU');
    const { i18n, currentLanguage } = await freshI18n();
    expect(i18n.language).toBe('ru');
    expect(currentLanguage()).toBe('ru');
    expect(document.documentElement.lang).toBe('ru');
  });

  it('falls back to en for an unsupported browser language', async () => {
    browserLanguages('de-DE');
    const { i18n, currentLanguage } = await freshI18n();
    expect(i18n.language).toBe('en');
    expect(currentLanguage()).toBe('en');
    expect(i18n.t('Today')).toBe('Today');
  });

  it('falls back to en for an unsupported stored language', async () => {
    browserLanguages('ru-RU');
    localStorage.setItem('language', 'fr');
    const { currentLanguage } = await freshI18n();
    expect(currentLanguage()).toBe('en');
  });

  it('stores a changed language and sets the document language', async () => {
    browserLanguages('en-US');
    const { i18n, currentLanguage } = await freshI18n();
    expect(document.documentElement.lang).toBe('en');

    await i18n.changeLanguage('ru');

    expect(localStorage.getItem('language')).toBe('ru');
    expect(document.documentElement.lang).toBe('ru');
    expect(currentLanguage()).toBe('ru');

    await i18n.changeLanguage('en');
    expect(localStorage.getItem('language')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('bundles English without the entries that map a key to itself, and still translates them', async () => {
    browserLanguages('en-US');
    const { i18n } = await freshI18n();
    expect(i18n.getResource('en', 'translation', 'Today')).toBeUndefined();
    expect(i18n.t('Too many attempts. Try again in {{seconds}} seconds.', { seconds: 5 })).toBe(
      'Too many attempts. Try again in 5 seconds.',
    );
  });

  it('loads Russian only when it is asked for', async () => {
    browserLanguages('en-US');
    const { i18n } = await freshI18n();
    expect(i18n.hasResourceBundle('ru', 'translation')).toBe(false);
    await i18n.changeLanguage('ru');
    expect(i18n.t('Today')).toBe('Сегодня');
    await i18n.changeLanguage('en');
  });

  it('starts only once', async () => {
    const { initI18n, i18n } = await freshI18n();
    expect(initI18n()).toBe(i18n);
    expect(i18n.isInitialized).toBe(true);
  });
});
