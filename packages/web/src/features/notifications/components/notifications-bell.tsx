import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { paths } from '@stageline/shared';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUnreadCount } from '../api';

/**
 * The bell in the app header: always in reach (also on a phone with the sidebar closed, or with the
 * sidebar turned off), with the unread count on it.
 */
export function NotificationsBell() {
  const { t } = useTranslation();
  const unread = useUnreadCount().data ?? 0;
  const label = unread ? t('Notifications: {{count}} unread', { count: unread }) : t('Notifications');
  return (
    <Tooltip label={label}>
      <Indicator
        label={unread > 99 ? '99+' : unread}
        disabled={!unread}
        size={16}
        color="red"
        offset={4}
        data-testid="notifications-bell-count"
      >
        <ActionIcon
          component={Link}
          to={paths.app.notifications()}
          variant="default"
          size="lg"
          aria-label={label}
          data-testid="notifications-bell"
        >
          <IconBell size={18} stroke={1.6} />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}
