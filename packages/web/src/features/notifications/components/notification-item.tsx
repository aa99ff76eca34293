import { ActionIcon, Box, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconCircle, IconCircleFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TNotification } from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { markdownToPlainText } from '@stageline/shared/markdown';
import { describeNotification } from '../lib/describe';
import classes from './notifications.module.css';

/** One notification: its sentence, extra words, time, the unread dot and a read/unread toggle. */
export function NotificationItem({
  notification,
  onOpen,
  onToggleRead,
}: {
  notification: TNotification;
  onOpen: () => void;
  onToggleRead: () => void;
}) {
  const { t } = useTranslation();
  const { formatCalendar, formatTime } = useDates();
  const read = notification.read;
  return (
    <Group
      className={classes.item}
      data-unread={read ? undefined : true}
      wrap="nowrap"
      align="flex-start"
      gap="sm"
      data-testid="notification"
      data-id={notification.id}
      data-read={read}
    >
      <UnstyledButton className={classes.open} onClick={onOpen} data-testid="notification-open" data-nav-item>
        <Stack gap={2}>
          <Text size="sm" fw={read ? 400 : 600} data-testid="notification-text">
            {describeNotification(notification, t)}
          </Text>
          {notification.text && notification.kind !== 'review_requested' ? (
            <Text size="sm" c="dimmed" lineClamp={2} data-testid="notification-excerpt">
              {markdownToPlainText(notification.text)}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            {formatCalendar(notification.created_at)}, {formatTime(notification.created_at)}
          </Text>
        </Stack>
      </UnstyledButton>
      <Tooltip label={read ? t('Mark as unread') : t('Mark as read')}>
        <ActionIcon
          variant="subtle"
          size="sm"
          onClick={onToggleRead}
          aria-label={read ? t('Mark as unread') : t('Mark as read')}
          data-testid="notification-toggle"
        >
          {read ? (
            <IconCircle size={12} />
          ) : (
            <Box c="blue" component="span" display="flex" data-testid="notification-unread-dot">
              <IconCircleFilled size={12} />
            </Box>
          )}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
