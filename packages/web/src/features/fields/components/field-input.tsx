import { Checkbox, MultiSelect, NumberInput, Select, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFieldValue } from '@stageline/shared';
import type { TFieldDefinition } from '@stageline/shared/fields';

/** An input for one custom field's value, by its kind; `null` is "no value". */
export function FieldInput({
  field,
  value,
  onChange,
  error,
  people,
}: {
  field: TFieldDefinition;
  value: TFieldValue | undefined;
  onChange: (value: TFieldValue) => void;
  error?: string;
  people?: readonly { id: number; name: string }[];
}) {
  const { t } = useTranslation();
  const common = {
    label: field.name,
    error,
    withAsterisk: field.required,
    'data-testid': `field-input-${field.key}`,
  };
  const options = field.options.map((o) => ({ value: o.id, label: o.label }));
  switch (field.kind) {
    case 'number':
      return (
        <NumberInput
          {...common}
          value={typeof value === 'number' ? value : ''}
          onChange={(next) => onChange(typeof next === 'number' ? next : null)}
          rightSection={field.unit || undefined}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          data={options}
          value={typeof value === 'string' ? value : null}
          onChange={(next) => onChange(next)}
          clearable={!field.required}
          placeholder={t('None')}
        />
      );
    case 'multi_select':
      return (
        <MultiSelect
          {...common}
          data={options}
          value={Array.isArray(value) ? value : []}
          onChange={(next) => onChange(next.length ? next : null)}
          clearable
        />
      );
    case 'person':
      return (
        <Select
          {...common}
          data={(people ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
          value={typeof value === 'number' ? String(value) : null}
          onChange={(next) => onChange(next ? Number(next) : null)}
          clearable={!field.required}
          searchable
          placeholder={t('None')}
        />
      );
    case 'checkbox':
      return (
        <Checkbox
          label={field.name}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
          error={error}
          data-testid={common['data-testid']}
          mt="xs"
        />
      );
    case 'long_text':
      return (
        <Textarea
          {...common}
          autosize
          minRows={2}
          maxRows={10}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.currentTarget.value || null)}
        />
      );
    case 'date':
      return (
        <TextInput
          {...common}
          type="date"
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.currentTarget.value || null)}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          type={field.kind === 'url' ? 'url' : 'text'}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.currentTarget.value || null)}
        />
      );
  }
}
