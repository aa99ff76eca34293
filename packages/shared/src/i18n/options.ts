import type { InitOptions } from 'i18next';
import { DefaultLanguage, Languages } from '../languages';

/**
 * The i18next options both sides start from, without the translations: the web app bundles English
 * and loads Russian when it is needed (docs/decisions.md, "Web speed").
 */
export const i18nOptions = {
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
