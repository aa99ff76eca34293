import { Badge, Group, type BadgeProps } from '@mantine/core';
import { IconAlarm, IconPlayerPlay } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { showsReady, TaskStatusLabels, type TTaskStatus } from '@stageline/shared';
import { statusColors } from './status-colors';

/** A task's status as a coloured badge with its label (docs/rules.md §Tasks). */
export function TaskStatusBadge({
  status,
  testId,
  ...props
}: { status: TTaskStatus; testId?: string } & Omit<BadgeProps, 'color' | 'children'>) {
  const { t } = useTranslation();
  return (
    <Badge color={statusColors[status]} variant="light" data-testid={testId} data-status={status} {...props}>
      {t(TaskStatusLabels[status])}
    </Badge>
  );
}

/** The two flags beside a status: ready to work on (not yet done), and overdue. */
export function TaskFlags({ ready, overdue, status }: { ready: boolean; overdue: boolean; status: TTaskStatus }) {
  const { t } = useTranslation();
  const showReady = showsReady(status, ready);
  if (!showReady && !overdue) return null;
  return (
    <Group gap={4} wrap="nowrap">
      {showReady ? (
        <Badge
          size="sm"
          variant="outline"
          color="teal"
          leftSection={<IconPlayerPlay size={10} />}
          data-testid="task-ready"
        >
          {t('Ready')}
        </Badge>
      ) : null}
      {overdue ? (
        <Badge size="sm" variant="filled" color="red" leftSection={<IconAlarm size={10} />} data-testid="task-overdue">
          {t('Overdue')}
        </Badge>
      ) : null}
    </Group>
  );
}
