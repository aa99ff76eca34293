import { Anchor, Badge, Group, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { TFieldValue } from '@stageline/shared';
import type { TFieldDefinition } from '@stageline/shared/fields';

/**
 * A custom field's value as the matrix, the units list and the unit screen show it: options as
 * coloured badges, a number with its unit, a person by name, a link, a tick.
 */
export function FieldValue({
  field,
  value,
  people,
  compact = false,
}: {
  field: TFieldDefinition;
  value: TFieldValue | undefined;
  people?: ReadonlyMap<number, string>;
  compact?: boolean;
}) {
  if (value === null || value === undefined || value === '')
    return (
      <Text c="dimmed" size="sm">
        —
      </Text>
    );
  const badge = (id: string) => {
    const option = field.options.find((o) => o.id === id);
    return (
      <Badge key={id} color={option?.color ?? 'gray'} variant="light" size={compact ? 'sm' : 'md'} tt="none">
        {option?.label ?? id}
      </Badge>
    );
  };
  switch (field.kind) {
    case 'select':
      return typeof value === 'string' ? badge(value) : null;
    case 'multi_select':
      return Array.isArray(value) ? (
        <Group gap={4} wrap="nowrap">
          {value.map(badge)}
        </Group>
      ) : null;
    case 'checkbox':
      return value === true ? <IconCheck size={16} aria-label="✓" /> : <Text size="sm">—</Text>;
    case 'person':
      return (
        <Text size="sm" truncate>
          {people?.get(Number(value)) ?? `#${String(value)}`}
        </Text>
      );
    case 'url':
      return (
        <Anchor href={String(value)} target="_blank" rel="noreferrer noopener" size="sm" truncate>
          {String(value)}
        </Anchor>
      );
    case 'number':
      return (
        <Text size="sm" truncate>
          {String(value)}
          {field.unit ? ` ${field.unit}` : ''}
        </Text>
      );
    default:
      return (
        <Text size="sm" truncate={compact} style={compact ? undefined : { whiteSpace: 'pre-wrap' }}>
          {String(value)}
        </Text>
      );
  }
}
