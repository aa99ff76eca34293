import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useUnreadCount } from '../api';

/** The unread count beside the Notifications entry; nothing when all is read. */
export function UnreadBadge() {
  const { t } = useTranslation();
  const unread = useUnreadCount().data ?? 0;
  if (!unread) return null;
  return (
    <Badge
      size="sm"
      circle={unread < 10}
      variant="filled"
      color="red"
      aria-label={t('{{count}} unread', { count: unread })}
      data-testid="notifications-badge"
      data-count={unread}
    >
      {unread > 99 ? '99+' : unread}
    </Badge>
  );
}
