import { Box, Group, Progress, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TaskStatuses, TaskStatusLabels, type TTaskCountersDto } from '@stageline/shared';
import { statusColors, statusFill } from './status-colors';

/**
 * Tasks by status as one stacked bar in the status palette (done first, so progress reads left to
 * right), each section with its label and count for hover and assistive technology.
 */
export function StatusBar({ counters, testId }: { counters: TTaskCountersDto; testId?: string }) {
  const { t } = useTranslation();
  const total = TaskStatuses.reduce((sum, status) => sum + counters[status], 0);
  const order = [...TaskStatuses].reverse();
  if (total === 0) return <Progress.Root size="md" data-testid={testId} data-total={0} aria-label={t('No tasks')} />;
  return (
    <Progress.Root size="md" data-testid={testId} data-total={total}>
      {order
        .filter((status) => counters[status] > 0)
        .map((status) => (
          <Tooltip key={status} label={`${t(TaskStatusLabels[status])}: ${counters[status]}`} withArrow>
            <Progress.Section
              value={(counters[status] / total) * 100}
              color={statusColors[status]}
              aria-label={`${t(TaskStatusLabels[status])}: ${counters[status]}`}
              data-status={status}
            />
          </Tooltip>
        ))}
    </Progress.Root>
  );
}

/** What the palette's colours mean: a swatch and the status's name each, in flow order. */
export function StatusLegend() {
  const { t } = useTranslation();
  return (
    <Group gap="md" wrap="wrap" data-testid="status-legend">
      {TaskStatuses.map((status) => (
        <Group key={status} gap={6} wrap="nowrap">
          <Box w={10} h={10} style={{ borderRadius: 3, background: statusFill(status) }} aria-hidden />
          <Text size="xs" c="dimmed">
            {t(TaskStatusLabels[status])}
          </Text>
        </Group>
      ))}
    </Group>
  );
}
