import { z } from 'zod';
import { FieldFilterPrefix, FieldKeyPattern, FieldLimits, ZFieldValue, type TFieldValue } from './fields-core';

export * from './fields-core';

/**
 * Custom fields of a project (docs/custom-fields.md, issue 35): Admins define them, units (and tasks)
 * carry their values in a `fields` object keyed by the field's `key`. The same rules check the
 * server's input and the web's forms (`checkFieldValue`).
 */

export const FieldKinds = [
  'text',
  'long_text',
  'number',
  'date',
  'select',
  'multi_select',
  'person',
  'url',
  'checkbox',
] as const;
export type TFieldKind = (typeof FieldKinds)[number];
export const ZFieldKind = z.enum(FieldKinds);

export const FieldTargets = ['unit', 'task'] as const;
export type TFieldTarget = (typeof FieldTargets)[number];

export const ZFieldKey = z
  .string()
  .regex(FieldKeyPattern, 'Use lower-case letters, digits and _ , starting with a letter.');

export const FieldMessages = {
  badKey: 'Use lower-case letters, digits and _ , starting with a letter.',
  keyTaken: 'A field with this key already exists in the project.',
  unknownField: 'No such field in this project.',
  archived: 'This field is archived.',
  required: 'Field is required',
  notText: 'Enter text.',
  tooLong: 'Ensure this field has no more than {{max}} characters.',
  notNumber: 'Enter a number.',
  notDate: 'Enter a date as YYYY-MM-DD.',
  notOption: 'Choose one of the field’s options.',
  notOptions: 'Choose options of the field.',
  notPerson: 'Choose a member of the workspace.',
  notUrl: 'Enter a web address starting with http:// or https://.',
  notCheckbox: 'Enter true or false.',
  optionsOnlyForSelect: 'Only select fields have options.',
  selectNeedsOptions: 'Add at least one option.',
  duplicateOption: 'Option ids must be different.',
  notForTasks: 'This field is not for tasks of this stage.',
  badFilter: 'Invalid filter for this field.',
  badSort: 'This field cannot be sorted.',
  tooManyFields: 'A project can have at most {{max}} fields.',
} as const;

export const ZFieldOption = z.object({
  /** Stable: values store it, so a label can change without touching them. */
  id: z.string().regex(/^[a-z0-9_-]{1,40}$/),
  label: z.string().trim().min(1).max(FieldLimits.optionLabel.max),
  color: z.string().regex(/^#[0-9a-f]{6}$/i, 'Choose a colour as #rrggbb.'),
});
export type TFieldOption = z.infer<typeof ZFieldOption>;

export const ZFieldDefinition = z.object({
  id: z.number().int(),
  project: z.number().int(),
  key: z.string(),
  name: z.string(),
  kind: ZFieldKind,
  applies_to: z.enum(FieldTargets),
  /** Stages whose tasks have the field (task fields only); empty: every stage. */
  stages: z.array(z.number().int()),
  required: z.boolean(),
  default: ZFieldValue,
  /** The unit of a number ("fr", "s"), shown after it. */
  unit: z.string(),
  options: z.array(ZFieldOption),
  position: z.number().int(),
  archived: z.boolean(),
  created_at: z.string(),
});
export type TFieldDefinition = z.infer<typeof ZFieldDefinition>;
export const ZFieldList = z.array(ZFieldDefinition);

const editable = {
  name: z.string().trim().min(1).max(FieldLimits.name.max),
  required: z.boolean(),
  default: ZFieldValue,
  unit: z.string().trim().max(FieldLimits.unit.max),
  options: z.array(ZFieldOption).max(FieldLimits.options.max),
  stages: z.array(z.number().int().positive()).max(500),
  position: z.number().int().min(0).max(10_000),
};

/** POST projects/{id}/fields/ (Admins). Kind, key and target never change afterwards. */
export const ZFieldCreate = z.object({
  key: ZFieldKey,
  name: editable.name,
  kind: ZFieldKind,
  applies_to: z.enum(FieldTargets).default('unit'),
  stages: editable.stages.default([]),
  required: editable.required.default(false),
  default: editable.default.default(null),
  unit: editable.unit.default(''),
  options: editable.options.default([]),
  position: editable.position.optional(),
});
export type TFieldCreate = z.input<typeof ZFieldCreate>;

/** PATCH fields/{id}/ (Admins): archive instead of delete, so no value is ever lost. */
export const ZFieldPatch = z.object({ ...editable, archived: z.boolean() }).partial();
export type TFieldPatch = z.infer<typeof ZFieldPatch>;

export const ZFieldListQuery = z.object({ archived: z.enum(['true', 'false']).optional() });

type Check = { ok: true; value: TFieldValue } | { ok: false; message: string; params?: Record<string, number> };

const isDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

/**
 * One value for a field, checked and normalised (trimmed text, null for empty). `members`, when
 * given, are the user ids a person field may take. Required-ness is the caller's: an empty value is
 * `{ ok: true, value: null }` here.
 */
export function checkFieldValue(
  field: Pick<TFieldDefinition, 'kind' | 'options'>,
  raw: unknown,
  members?: ReadonlySet<number>,
): Check {
  if (raw === null || raw === undefined || raw === '') return { ok: true, value: null };
  const bad = (message: string, params?: Record<string, number>): Check => ({ ok: false, message, params });
  switch (field.kind) {
    case 'text':
    case 'long_text':
    case 'url': {
      if (typeof raw !== 'string') return bad(FieldMessages.notText);
      const max =
        field.kind === 'text'
          ? FieldLimits.text.max
          : field.kind === 'url'
            ? FieldLimits.url.max
            : FieldLimits.longText.max;
      const value = field.kind === 'long_text' ? raw.replace(/\s+$/, '') : raw.trim();
      if (value.length > max) return bad(FieldMessages.tooLong, { max });
      if (field.kind === 'url' && value && !/^https?:\/\/[^\s]+$/i.test(value)) return bad(FieldMessages.notUrl);
      return { ok: true, value: value || null };
    }
    case 'number':
      if (typeof raw !== 'number' || !Number.isFinite(raw) || Math.abs(raw) > FieldLimits.number.max)
        return bad(FieldMessages.notNumber);
      return { ok: true, value: raw };
    case 'date':
      return typeof raw === 'string' && isDate(raw) ? { ok: true, value: raw } : bad(FieldMessages.notDate);
    case 'select':
      return typeof raw === 'string' && field.options.some((o) => o.id === raw)
        ? { ok: true, value: raw }
        : bad(FieldMessages.notOption);
    case 'multi_select': {
      if (!Array.isArray(raw) || raw.some((id) => typeof id !== 'string' || !field.options.some((o) => o.id === id)))
        return bad(FieldMessages.notOptions);
      const ids = field.options.map((o) => o.id).filter((id) => (raw as string[]).includes(id));
      return { ok: true, value: ids.length > 0 ? ids : null };
    }
    case 'person':
      if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1 || (members && !members.has(raw)))
        return bad(FieldMessages.notPerson);
      return { ok: true, value: raw };
    case 'checkbox':
      if (typeof raw !== 'boolean') return bad(FieldMessages.notCheckbox);
      return { ok: true, value: raw };
  }
}

/** The option ids of a select field made from labels: "Very hard" → "very-hard", unique. */
export function optionIdOf(label: string, taken: readonly string[]): string {
  const base =
    label
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 30) || 'option';
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}-${n}`;
  return id;
}

/** The field filters of a query: `field.frames=10..20` → { frames: '10..20' }. */
export function fieldFiltersOf(query: Record<string, unknown>): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (name.startsWith(FieldFilterPrefix) && typeof value === 'string')
      found[name.slice(FieldFilterPrefix.length)] = value;
  }
  return found;
}

/** True / false as a CSV cell may write a checkbox. */
const truthy = new Set(['true', 'yes', '1', 'x', '✓', 'да']);
const falsy = new Set(['false', 'no', '0', 'нет']);

/**
 * A CSV cell as a field's value (docs/custom-fields.md, "CSV"): numbers with `.` or `,`, dates
 * `YYYY-MM-DD`, options by label or id (multi-select `; `-separated), people by username or
 * e-mail (`people`, lower-cased), checkboxes true/yes/1. Checked as `checkFieldValue` checks
 * input; an empty cell is no value.
 */
export function fieldValueOfText(
  field: Pick<TFieldDefinition, 'kind' | 'options'>,
  text: string,
  people: ReadonlyMap<string, number>,
): Check {
  const cell = text.trim();
  if (cell === '') return { ok: true, value: null };
  const option = (part: string) =>
    field.options.find((o) => o.id === part || o.label.toLowerCase() === part.toLowerCase())?.id ?? part;
  switch (field.kind) {
    case 'number': {
      const normal = cell.replace(/\s/g, '').replace(',', '.');
      return checkFieldValue(field, /^-?\d+(\.\d+)?$/.test(normal) ? Number(normal) : cell);
    }
    case 'select':
      return checkFieldValue(field, option(cell));
    case 'multi_select':
      return checkFieldValue(
        field,
        cell
          .split(';')
          .map((part) => part.trim())
          .filter(Boolean)
          .map(option),
      );
    case 'person':
      return checkFieldValue(field, people.get(cell.toLowerCase()) ?? cell);
    case 'checkbox':
      if (truthy.has(cell.toLowerCase())) return { ok: true, value: true };
      if (falsy.has(cell.toLowerCase())) return { ok: true, value: false };
      return checkFieldValue(field, cell);
    default:
      return checkFieldValue(field, text);
  }
}

/** A value as a CSV cell writes it, read back by `fieldValueOfText`: options by label, people by username. */
export function fieldValueText(
  field: Pick<TFieldDefinition, 'kind' | 'options'>,
  value: unknown,
  usernameOf: (id: number) => string | undefined,
): string {
  if (value === null || value === undefined) return '';
  const label = (id: unknown) => field.options.find((o) => o.id === id)?.label ?? String(id);
  switch (field.kind) {
    case 'select':
      return label(value);
    case 'multi_select':
      return Array.isArray(value) ? value.map(label).join('; ') : '';
    case 'person':
      return usernameOf(Number(value)) ?? '';
    default:
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
      return JSON.stringify(value);
  }
}
