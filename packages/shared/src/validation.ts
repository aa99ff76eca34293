import { z } from 'zod';
import { Limits } from './limits';

/**
 * Every zod issue carries an i18n key as its message (the English source string, docs/rules.md §API),
 * so the server can translate field errors by `Accept-Language` and forms can translate them in the
 * browser. Parameters such as `{{min}}` come from the issue itself, through `issueParams`.
 */
function messageKey(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'Required';
      return issue.expected === 'int' ? 'Enter a whole number.' : 'Invalid value.';
    case 'too_small':
      if (issue.origin === 'string') {
        // An empty field is missing, whatever its minimum (docs/decisions.md, entry 61).
        return Number(issue.minimum) <= 1 || issue.input === ''
          ? 'Field can not be empty'
          : 'Ensure this field has at least {{min}} characters.';
      }
      if (issue.origin === 'array' || issue.origin === 'set') return 'Select at least {{min}}.';
      return issue.inclusive === false
        ? 'Ensure this value is greater than {{min}}.'
        : 'Ensure this value is greater than or equal to {{min}}.';
    case 'too_big':
      if (issue.origin === 'string') return 'Ensure this field has no more than {{max}} characters.';
      if (issue.origin === 'array' || issue.origin === 'set') return 'Ensure this list has no more than {{max}} items.';
      return issue.inclusive === false
        ? 'Ensure this value is less than {{max}}.'
        : 'Ensure this value is less than or equal to {{max}}.';
    case 'invalid_format':
      return issue.format === 'email' ? 'Invalid email' : 'Invalid format.';
    case 'invalid_value':
      return 'Select a valid choice.';
    case 'unrecognized_keys':
      return 'Unknown field.';
    default:
      return 'Invalid value.';
  }
}

z.config({ customError: (issue) => messageKey(issue) });

/** Interpolation values for a translated issue message. */
export function issueParams(issue: { minimum?: unknown; maximum?: unknown }): Record<string, string | number> {
  const params: Record<string, string | number> = {};
  if (typeof issue.minimum === 'number' || typeof issue.minimum === 'bigint') params.min = Number(issue.minimum);
  if (typeof issue.maximum === 'number' || typeof issue.maximum === 'bigint') params.max = Number(issue.maximum);
  return params;
}

/**
 * A whole number from a URL (path or query) or a JSON body: a JSON number, or a string of decimal
 * digits only. `z.coerce` would also take `0x10`, `1e3`, ` 7` or `0b1` (`Number()` reads them all),
 * so ids could be spelled in ways no log or cache recognises (docs/security.md).
 */
export function zWholeNumber(range: { min: number; max: number }) {
  return z
    .union([
      z.number(),
      z
        .string()
        .regex(/^[0-9]{1,16}$/)
        .transform(Number),
    ])
    .pipe(z.number().int().min(range.min).max(range.max));
}

/** A record id from a URL: a positive PostgreSQL integer, in decimal (docs/rules.md §Web). */
export const ZId = zWholeNumber({ min: 1, max: Limits.maxId });
/** An offset into a paged list. */
export const ZOffset = zWholeNumber({ min: 0, max: Limits.maxId }).default(0);
/** A page size. */
export const ZPageLimit = zWholeNumber({ min: 1, max: Limits.pageSize.max }).default(Limits.pageSize.default);
export const ZIdParams = z.object({ id: ZId });
/** Ids in a URL as one comma-separated value (`units=3,7,12`), at most `max` of them, in decimal. */
export function zIdList(max: number) {
  return z
    .string()
    .regex(/^[0-9]{1,16}(,[0-9]{1,16})*$/)
    .transform((value) => value.split(',').map(Number))
    .pipe(z.array(z.number().int().min(1).max(Limits.maxId)).max(max));
}

/**
 * Unicode bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and zero-width
 * characters (U+200B–U+200D, U+2060, U+FEFF): invisible, yet they reorder or hide what a name shows
 * (`ev\u202Egnp.exe` reads as `evexe.png`; docs/security.md, "Names").
 */
const invisibles = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF]/g;

/** A name without the invisible characters that would make it show as something else. */
export function stripInvisibles(text: string): string {
  return text.replace(invisibles, '');
}

/**
 * A name of a workspace, project, pipeline, stage or unit: without bidi and zero-width characters,
 * trimmed. The one normaliser of record names; the batch template and CSV import use it too.
 */
export const ZName = z.string().overwrite(stripInvisibles).trim().min(Limits.name.min).max(Limits.name.max);
export const ZDescription = z.string().max(Limits.description.max);
