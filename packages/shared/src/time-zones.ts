/**
 * Whether `name` is an IANA time zone this runtime knows (`Europe/Berlin`, `Asia/Tokyo`, `UTC`).
 * People's time zones are stored by name; the API keeps instants in UTC (docs/decisions.md). Kept
 * apart from `dates.ts` so schemas can check a name without pulling the date library in.
 */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
