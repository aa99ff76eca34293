import type { TFieldKind } from '@stageline/shared/fields';

/** The name of each kind of field, as an i18n key. */
export const FieldKindLabels: Record<TFieldKind, string> = {
  text: 'Text',
  long_text: 'Long text (Markdown)',
  number: 'Number',
  date: 'Date',
  select: 'Select',
  multi_select: 'Multi-select',
  person: 'Person',
  url: 'URL',
  checkbox: 'Checkbox',
};
