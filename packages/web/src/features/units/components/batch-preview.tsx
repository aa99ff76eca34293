import { Badge, Group, List, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { batchUnitNames, Limits, type TBatchUnits } from '@stageline/shared';

type TPreviewInput = Pick<TBatchUnits, 'template' | 'count' | 'start' | 'step'>;

/** How many names the preview shows from the start; the last one follows after an ellipsis. */
const Shown = 5;

/** The names a batch would create: the first few and the last, as the server will make them. */
export function previewNames(input: TPreviewInput, projectName: string): { first: string[]; last: string | null } {
  const first = batchUnitNames(input, projectName, Shown);
  if (input.count <= Shown) return { first, last: null };
  const lastStart = input.start + (input.count - 1) * input.step;
  const [last] = batchUnitNames({ ...input, count: 1, start: lastStart }, projectName, 1);
  return { first, last: last ?? null };
}

/** Only numbers the schema would take make a preview; anything else shows nothing yet. */
export function previewable(values: {
  template: string;
  count: unknown;
  start: unknown;
  step: unknown;
}): values is TPreviewInput {
  const int = (v: unknown, min: number, max: number) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
  return (
    values.template.includes('{count}') &&
    int(values.count, Limits.batchUnits.min, Limits.batchUnits.max) &&
    int(values.start, 0, 1_000_000_000) &&
    int(values.step, 1, 1_000_000)
  );
}

export function BatchPreview({ input, projectName }: { input: TPreviewInput | null; projectName: string }) {
  const { t } = useTranslation();
  const names = input ? previewNames(input, projectName) : null;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="batch-preview">
      <Stack gap={6}>
        <Group justify="space-between">
          <Text size="sm" fw={600}>
            {t('Preview')}
          </Text>
          {input ? (
            <Badge variant="light" data-testid="batch-total">
              {t('{{count}} unit', { count: input.count })}
            </Badge>
          ) : null}
        </Group>
        {names ? (
          <List size="sm" spacing={2} data-testid="batch-preview-names">
            {names.first.map((name, i) => (
              <List.Item key={i} data-testid="batch-preview-name">
                {name}
              </List.Item>
            ))}
            {names.last !== null ? (
              <>
                <List.Item icon={<span />}>…</List.Item>
                <List.Item data-testid="batch-preview-name">{names.last}</List.Item>
              </>
            ) : null}
          </List>
        ) : (
          <Text size="sm" c="dimmed">
            {t('Fix the fields above to see the names.')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
