import { Button, Center, Group, Loader, Pagination, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TNotification } from '@stageline/shared';
import { PageCard } from '../../../shared/ui/page-card';
import { showToast } from '../../../shared/ui/toast';
import {
  notificationPageSize,
  useMarkAllNotificationsRead,
  useMarkNotification,
  useNotificationList,
  type TNotificationFilter,
} from '../api';
import { NotificationItem } from '../components/notification-item';
import { notificationPath } from '../lib/describe';
import { LoadError } from '../../../shared/ui/load-error';

/** `/app/notifications`: the caller's notifications, newest first, all or unread only. */
export default function NotificationsScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<TNotificationFilter>('all');
  const [page, setPage] = useState(1);
  const list = useNotificationList(filter, page);
  const mark = useMarkNotification();
  const markAll = useMarkAllNotificationsRead();
  const failed = () => showToast({ kind: 'error', message: t('Data was not saved') });

  const pages = Math.max(1, Math.ceil((list.data?.count ?? 0) / notificationPageSize));
  const unread = list.data?.unread ?? 0;
  // Marking read under 'Unread' shortens the list: stay on a page that still exists.
  if (list.data && !list.isPlaceholderData && page > pages) setPage(pages);

  const open = (notification: TNotification) => {
    if (!notification.read) mark.mutate({ id: notification.id, read: true }, { onError: failed });
    const path = notificationPath(notification);
    if (path) void navigate(path);
  };

  return (
    <PageCard
      title={t('Notifications')}
      actions={
        <Button
          variant="default"
          leftSection={<IconChecks size={16} />}
          disabled={unread === 0}
          loading={markAll.isPending}
          onClick={() =>
            markAll.mutate(undefined, {
              onSuccess: () => showToast({ kind: 'success', message: t('Saved') }),
              onError: failed,
            })
          }
          data-testid="notifications-read-all"
        >
          {t('Mark all as read')}
        </Button>
      }
    >
      <Group justify="space-between">
        <SegmentedControl
          value={filter}
          onChange={(value) => {
            setFilter(value);
            setPage(1);
          }}
          data={[
            { value: 'all', label: t('All') },
            { value: 'unread', label: unread ? t('Unread ({{count}})', { count: unread }) : t('Unread') },
          ]}
          data-testid="notifications-filter"
        />
      </Group>
      {list.isPending ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : list.isError ? (
        <LoadError retry={list} testId="notifications-error" />
      ) : list.data.results.length === 0 ? (
        <Stack align="center" gap={4} py="xl" data-testid="notifications-empty">
          <IconBellOff size={32} stroke={1.4} color="var(--mantine-color-dimmed)" />
          <Text c="dimmed">{filter === 'unread' ? t('No unread notifications') : t('No notifications yet')}</Text>
        </Stack>
      ) : (
        <Stack gap={0} data-testid="notifications-list">
          {list.data.results.map((notification) => (
            <NotificationItem
              key={notification.id}
              notification={notification}
              onOpen={() => open(notification)}
              onToggleRead={() => mark.mutate({ id: notification.id, read: !notification.read }, { onError: failed })}
            />
          ))}
        </Stack>
      )}
      {pages > 1 ? (
        <Group justify="center">
          <Pagination total={pages} value={page} onChange={setPage} data-testid="notifications-pagination" />
        </Group>
      ) : null}
    </PageCard>
  );
}
