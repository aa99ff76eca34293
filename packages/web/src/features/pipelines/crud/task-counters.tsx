import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TaskStatuses, TaskStatusLabels, type TTaskCountersDto } from '@stageline/shared';
import { overdueColor, statusColors } from '../../../shared/ui/status-colors';

/** A pipeline's tasks by status as small badges (only the statuses that have tasks), overdue in red. */
export function TaskCounters({ counters }: { counters: TTaskCountersDto }) {
  const { t } = useTranslation();
  const present = TaskStatuses.filter((status) => counters[status] > 0);
  if (present.length === 0 && counters.overdue === 0) {
    return (
      <Text size="xs" c="dimmed">
        {t('No tasks')}
      </Text>
    );
  }
  return (
    <Group gap={4} wrap="wrap">
      {present.map((status) => (
        <Tooltip key={status} label={t(TaskStatusLabels[status])}>
          <Badge size="sm" variant="light" color={statusColors[status]} data-testid={`pipeline-counter-${status}`}>
            {t(TaskStatusLabels[status])}: {counters[status]}
          </Badge>
        </Tooltip>
      ))}
      {counters.overdue > 0 ? (
        <Badge size="sm" variant="filled" color={overdueColor} data-testid="pipeline-counter-overdue">
          {t('Overdue')}: {counters.overdue}
        </Badge>
      ) : null}
    </Group>
  );
}
