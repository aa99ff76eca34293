/** The languages the product speaks (docs/rules.md §Accounts); `en` is the source and the default. */
export const Languages = ['en', 'ru'] as const;
export type TLanguage = (typeof Languages)[number];
export const DefaultLanguage: TLanguage = 'en';

export function isLanguage(value: unknown): value is TLanguage {
  return typeof value === 'string' && (Languages as readonly string[]).includes(value);
}

/**
 * Maps any language tag to a supported language: itself, else its base language (`ru-RU` → `ru`),
 * else `en` (docs/rules.md §Accounts).
 */
export function resolveLanguage(tag: string | null | undefined): TLanguage {
  if (!tag) return DefaultLanguage;
  const lower = tag.trim().toLowerCase();
  if (isLanguage(lower)) return lower;
  const base = lower.split(/[-_]/)[0];
  return isLanguage(base) ? base : DefaultLanguage;
}

/**
 * Picks the best supported language from an `Accept-Language` header, honouring q-values; a
 * header with none we speak gives `en`.
 */
export function negotiateLanguage(header: string | null | undefined): TLanguage {
  if (!header) return DefaultLanguage;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranked) {
    const lower = tag.toLowerCase();
    const base = lower.split(/[-_]/)[0];
    if (isLanguage(lower)) return lower;
    if (isLanguage(base)) return base;
  }
  return DefaultLanguage;
}
