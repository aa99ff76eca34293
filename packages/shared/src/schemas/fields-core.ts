import { z } from 'zod';

/**
 * What other records carry of custom fields (docs/custom-fields.md): the limits, a `fields` object's
 * values and a field sort. In the shared index, which the app shell loads; the definitions, their
 * messages and checks are `@stageline/shared/fields`, loaded with the screens and the server (as
 * time logs are: decision 177).
 */

export const FieldLimits = {
  /** A key of 30 keeps `-field.<key>` within a saved view's 40-character sort. */
  key: { max: 30 },
  name: { max: 100 },
  unit: { max: 20 },
  text: { max: 1_000 },
  longText: { max: 20_000 },
  url: { max: 2_000 },
  options: { max: 100 },
  optionLabel: { max: 100 },
  /** Defined fields per project (archived ones included). */
  perProject: { max: 100 },
  number: { max: 1e15 },
} as const;

/** A key as URLs and CSV headers use it: lower-case letters, digits and `_`, starting with a letter. */
export const FieldKeyPattern = /^[a-z][a-z0-9_]{0,29}$/;
/** A value as the API carries it: text, number, date (`YYYY-MM-DD`), option id(s), user id or true/false. */
export const ZFieldValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).nullable();
export type TFieldValue = z.infer<typeof ZFieldValue>;

/** The `fields` object of a unit or task: values by field key; a field without a value is absent. */
export const ZFieldValues = z
  .record(z.string(), ZFieldValue)
  .describe('Custom field values by field key: text, number, date (YYYY-MM-DD), option id(s), user id, boolean.');
export type TFieldValues = z.infer<typeof ZFieldValues>;

/** A query key of a field filter: `field.<key>` (GET units/, units/matrix/, saved views). */
export const FieldFilterPrefix = 'field.';
/** A sort on a field: `field.<key>` or `-field.<key>`. */
export const ZFieldSort = z.string().regex(/^-?field\.[a-z][a-z0-9_]{0,29}$/);
