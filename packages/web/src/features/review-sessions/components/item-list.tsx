import { ActionIcon, Badge, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TReviewItem } from '@stageline/shared/review-sessions';
import { TaskStatusBadge } from '../../../shared/ui/task-status-badge';

/**
 * The session's items in order: click to play one; managers move items up and down (the server
 * keeps the order) and take them out.
 */
export function ItemList({
  items,
  current,
  onSelect,
  onMove,
  onRemove,
}: {
  items: TReviewItem[];
  current: number;
  onSelect: (index: number) => void;
  onMove?: ((index: number, by: -1 | 1) => void) | undefined;
  onRemove?: ((item: TReviewItem) => void) | undefined;
}) {
  const { t } = useTranslation();
  return (
    <ScrollArea.Autosize mah="70vh" type="auto">
      <Stack gap={2} data-testid="review-items">
        {items.map((item, index) => (
          <Group key={item.id} gap={4} wrap="nowrap" align="center">
            <NavLink
              active={index === current}
              onClick={() => onSelect(index)}
              data-testid="review-item"
              data-item={item.id}
              aria-current={index === current ? 'true' : undefined}
              label={
                <Text size="sm" fw={500} truncate>
                  {index + 1}. {item.task.unit.name}
                </Text>
              }
              description={
                <Group gap={6} wrap="nowrap">
                  <Text size="xs" c="dimmed" truncate>
                    {item.task.stage.name}
                  </Text>
                  <TaskStatusBadge status={item.task.status} size="xs" />
                  {item.client_feedback[0] && item.client_feedback[0].kind !== 'comment' ? (
                    <Badge
                      size="xs"
                      variant="light"
                      color={item.client_feedback[0].kind === 'approve' ? 'teal' : 'orange'}
                    >
                      {item.client_feedback[0].kind === 'approve'
                        ? t('Client approved')
                        : t('Client asked for changes')}
                    </Badge>
                  ) : null}
                </Group>
              }
            />
            {onMove ? (
              <Stack gap={0}>
                <ActionIcon
                  size="xs"
                  variant="subtle"
                  disabled={index === 0}
                  onClick={() => onMove(index, -1)}
                  aria-label={t('Move up')}
                >
                  <IconArrowUp size={12} />
                </ActionIcon>
                <ActionIcon
                  size="xs"
                  variant="subtle"
                  disabled={index === items.length - 1}
                  onClick={() => onMove(index, 1)}
                  aria-label={t('Move down')}
                >
                  <IconArrowDown size={12} />
                </ActionIcon>
              </Stack>
            ) : null}
            {onRemove ? (
              <ActionIcon
                size="sm"
                variant="subtle"
                color="gray"
                onClick={() => onRemove(item)}
                aria-label={t('Take out of the session')}
              >
                <IconX size={14} />
              </ActionIcon>
            ) : null}
          </Group>
        ))}
      </Stack>
    </ScrollArea.Autosize>
  );
}
