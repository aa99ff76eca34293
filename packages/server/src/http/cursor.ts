import { FieldError } from './errors';

/**
 * Key paging (docs/decisions.md, entries 105 and 108): a list's `next_cursor` is the last row's sort
 * key as base64url JSON, opaque to clients; `after` gives it back. One format and one error for every
 * list that pages by key.
 */

/** The messages of a bad `after` (i18n keys; the web translates them). */
export const PageMessages = {
  badCursor: 'This page link is not valid: start again from the first page.',
  afterWithOffset: 'Give either after or offset, not both.',
} as const;

/** The cursor of a row whose sort key is `key`. */
export function writeCursor(key: readonly (string | number | null)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/**
 * The key a cursor names, as `parse` reads it from the decoded array (undefined when it is not such a
 * key); a 400 on `after` for anything else, and for a cursor given with an offset.
 */
export function readCursor<T>(
  cursor: string | undefined,
  offset: number,
  parse: (value: readonly unknown[]) => T | undefined,
): T | undefined {
  if (cursor === undefined) return undefined;
  if (offset > 0) throw new FieldError({ after: [PageMessages.afterWithOffset] });
  let key: T | undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value)) key = parse(value);
  } catch {
    // Falls through to the field error.
  }
  if (key === undefined) throw new FieldError({ after: [PageMessages.badCursor] });
  return key;
}

/** A row id as a cursor holds it. */
export const isRowId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
