/** The places the palette opened lately, newest first, kept in this browser (at most 8). */
export type TRecent = { key: string; label: string; hint: string; path: string };

const storageKey = 'palette_recent';
const max = 8;

export function readRecent(): TRecent[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey) ?? '[]');
    return Array.isArray(parsed) ? (parsed as TRecent[]).filter((item) => item && typeof item.path === 'string') : [];
  } catch {
    return [];
  }
}

export function rememberRecent(item: TRecent): void {
  const next = [item, ...readRecent().filter((other) => other.key !== item.key)].slice(0, max);
  localStorage.setItem(storageKey, JSON.stringify(next));
}
