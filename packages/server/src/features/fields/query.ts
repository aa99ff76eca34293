import { sql, type SQL } from 'drizzle-orm';
import { FieldFilterPrefix, FieldKeyPattern } from '@stageline/shared';
import { FieldMessages } from '@stageline/shared/fields';
import { FieldError } from '../../http/errors';
import type { FieldRow } from './service';

/**
 * Filters and sorts on custom field values (docs/custom-fields.md), as SQL over a `fields` jsonb
 * column. Equality (a select's any-of, a number, a date, a person, a checkbox) is a containment
 * `fields @> {...}` that the column's GIN index (`jsonb_path_ops`) answers; ranges and text
 * searches read the value of the rows the other conditions leave (decision 210).
 */

const filterError = (key: string, message: string = FieldMessages.badFilter) =>
  new FieldError({ [`${FieldFilterPrefix}${key.replace(/[^\w-]/g, '').slice(0, 30) || '?'}`]: [message] });

const number = /^-?\d{1,15}(\.\d{1,10})?$/;
const date = /^\d{4}-\d{2}-\d{2}$/;

/** `a..b`, `a..`, `..b` or `a`: both ends checked by `valid`; undefined when not a range. */
function rangeOf(value: string, valid: RegExp): { from?: string; to?: string } | undefined {
  const parts = value.split('..');
  if (parts.length === 1) return valid.test(value) ? { from: value, to: value } : undefined;
  if (parts.length !== 2) return undefined;
  const [from, to] = parts as [string, string];
  if ((from && !valid.test(from)) || (to && !valid.test(to)) || (!from && !to)) return undefined;
  return { from: from || undefined, to: to || undefined };
}

const contains = (column: SQL, key: string, value: unknown) =>
  sql`${column} @> ${JSON.stringify({ [key]: value })}::jsonb`;
const anyOf = (parts: SQL[]) => (parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` or `)})`);

/**
 * The conditions of `field.<key>=…` filters on `column`, for a project's `fields`:
 * numbers and dates `v`, `a..b`, `a..`, `..b`; selects and multi-selects any of `id,id`; a person
 * `me` or ids; a checkbox `true`/`false`; text, long text and URLs a part of the text. An unknown
 * field, an odd key or a value the kind cannot take is a 400 naming `field.<key>`.
 */
export function fieldConditions(
  fields: FieldRow[],
  filters: Record<string, string>,
  { column, userId, escapeLike }: { column: SQL; userId: number; escapeLike: (text: string) => string },
): SQL[] {
  const byKey = new Map(fields.filter((f) => f.appliesTo === 'unit').map((f) => [f.key, f]));
  return Object.entries(filters).map(([key, raw]) => {
    if (!FieldKeyPattern.test(key)) throw filterError(key, FieldMessages.badKey);
    const field = byKey.get(key);
    if (!field) throw filterError(key, FieldMessages.unknownField);
    const value = raw.trim();
    if (!value) throw filterError(key);
    const text = sql`(${column} ->> ${key})`;
    switch (field.kind) {
      case 'number': {
        const range = rangeOf(value, number);
        if (!range) throw filterError(key);
        if (range.from !== undefined && range.from === range.to) return contains(column, key, Number(range.from));
        const parts: SQL[] = [];
        if (range.from !== undefined) parts.push(sql`${text}::numeric >= ${range.from}::numeric`);
        if (range.to !== undefined) parts.push(sql`${text}::numeric <= ${range.to}::numeric`);
        return sql`(${sql.join(parts, sql` and `)})`;
      }
      case 'date': {
        const range = rangeOf(value, date);
        if (!range) throw filterError(key);
        if (range.from !== undefined && range.from === range.to) return contains(column, key, range.from);
        const parts: SQL[] = [];
        if (range.from !== undefined) parts.push(sql`${text} >= ${range.from}`);
        if (range.to !== undefined) parts.push(sql`${text} <= ${range.to}`);
        return sql`(${sql.join(parts, sql` and `)})`;
      }
      case 'select':
      case 'multi_select': {
        const ids = value.split(',').map((id) => id.trim());
        if (ids.length > 100 || ids.some((id) => !field.options.some((o) => o.id === id))) {
          throw filterError(key, FieldMessages.notOption);
        }
        return anyOf(ids.map((id) => contains(column, key, field.kind === 'select' ? id : [id])));
      }
      case 'person': {
        const ids = value
          .split(',')
          .map((id) => (id.trim() === 'me' ? userId : /^\d{1,10}$/.test(id.trim()) ? Number(id) : NaN));
        if (ids.length > 100 || ids.some((id) => !Number.isSafeInteger(id)))
          throw filterError(key, FieldMessages.notPerson);
        return anyOf(ids.map((id) => contains(column, key, id)));
      }
      case 'checkbox':
        if (value === 'true') return contains(column, key, true);
        if (value === 'false') return sql`not ${contains(column, key, true)}`;
        throw filterError(key, FieldMessages.notCheckbox);
      case 'text':
      case 'long_text':
      case 'url':
        if (value.length > 200) throw filterError(key);
        return sql`${text} ilike ${`%${escapeLike(value)}%`}`;
    }
  });
}

/** A sort's key, as the matrix's sorts are: the key expression, its text for a cursor, its type and the cursor's check. */
export type FieldSort = { key: SQL; cursor: SQL; type: SQL; valid: (key: string) => boolean; desc: boolean };

/**
 * `sort=field.<key>` (or `-field.<key>`): a total order, so pages go by key (`after`) as the other
 * sorts do. Units without a value come last in ascending order (first in descending), except for
 * text, where they sort as empty. Numbers by value, dates and text as written, selects in the order
 * of their options, checkboxes unticked first; people, multi-selects and long text do not sort.
 */
export function fieldSort(fields: FieldRow[], sort: string, column: SQL): FieldSort {
  const desc = sort.startsWith('-');
  const key = sort.slice(desc ? 1 + FieldFilterPrefix.length : FieldFilterPrefix.length);
  const field = fields.find((f) => f.key === key && f.appliesTo === 'unit');
  const error = (message: string) => new FieldError({ sort: [message] });
  if (!field) throw error(FieldMessages.unknownField);
  const text = sql`(${column} ->> ${key})`;
  const of = (expression: SQL, type: string, valid: (key: string) => boolean): FieldSort => ({
    key: sql`(${expression})`,
    cursor: sql`(${expression})::text`,
    type: sql.raw(type),
    valid,
    desc,
  });
  switch (field.kind) {
    case 'number':
      return of(
        sql`coalesce(${text}::numeric, 'Infinity'::numeric)`,
        'numeric',
        (k) => k === 'Infinity' || /^-?\d{1,16}(\.\d{1,20})?$/.test(k),
      );
    case 'date':
      return of(sql`coalesce(${text}, '9999-99-99')`, 'text', (k) => k.length <= 10);
    case 'text':
    case 'url':
      return of(sql`coalesce(${text}, '')`, 'text', (k) => k.length <= 2_000);
    case 'select': {
      const ids = `{${field.options.map((o) => `"${o.id}"`).join(',')}}`;
      return of(sql`coalesce(array_position(${ids}::text[], ${text}), 1000000)`, 'int', (k) => /^\d{1,7}$/.test(k));
    }
    case 'checkbox':
      return of(sql`(coalesce(${text}, 'false') = 'true')::int`, 'int', (k) => k === '0' || k === '1');
    default:
      throw error(FieldMessages.badSort);
  }
}
