import type { Plugin } from 'vite';

/**
 * English translation files without the entries that map a key to itself (about 95 % of them): our
 * keys are the English text, and i18next answers a missing key with the key, interpolated, so the
 * app reads the same and downloads only the plural forms and contexts (docs/decisions.md, "Web speed").
 */
export function englishWithoutIdentities(): Plugin {
  return {
    name: 'stageline-english-without-identities',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]locales[\\/]en[\\/][^\\/]+\.json$/.test(id)) return null;
      const entries = Object.entries(JSON.parse(code) as Record<string, string>);
      return { code: JSON.stringify(Object.fromEntries(entries.filter(([key, value]) => key !== value))), map: null };
    },
  };
}
