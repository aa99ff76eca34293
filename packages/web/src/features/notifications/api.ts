import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useMatch } from 'react-router';
import { paths } from '@stageline/shared';
import { ZNotificationList } from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';

/**
 * Notification calls (docs/rules.md §API). Everything lives under `['notifications']`, so one
 * invalidation (a call here, a live `notification` event) refreshes the list and the unread badge.
 * Calls are `silent`: the screen says 'Data was not saved' itself (docs/rules.md §Web).
 */
export type TNotificationFilter = 'all' | 'unread';

export const notificationPageSize = 20;

export const notificationKeys = {
  all: ['notifications'] as const,
  unread: () => ['notifications', 'unread'] as const,
  list: (filter: TNotificationFilter, page: number) => ['notifications', 'list', filter, page] as const,
};

const silent = { silent: true } as const;

/** GET notifications/?read=false: newest first, with the caller's unread total. */
export const getNotifications = async (filter: TNotificationFilter, page: number, signal?: AbortSignal) =>
  ZNotificationList.parse(
    await api.get('notifications/', {
      query: {
        ...(filter === 'unread' ? { read: 'false' } : {}),
        offset: (page - 1) * notificationPageSize,
        limit: notificationPageSize,
      },
      signal,
      silent: true,
    }),
  );

export const notificationListQueryOptions = (filter: TNotificationFilter, page: number) =>
  queryOptions({
    queryKey: notificationKeys.list(filter, page),
    queryFn: ({ signal }) => getNotifications(filter, page, signal),
    placeholderData: keepPreviousData,
  });
export const useNotificationList = (filter: TNotificationFilter, page: number) =>
  useQuery(notificationListQueryOptions(filter, page));

/** The unread count of the badge: the smallest unread page, of which only `unread` is read. */
export const unreadCountQueryOptions = () =>
  queryOptions({
    queryKey: notificationKeys.unread(),
    queryFn: async ({ signal }) =>
      ZNotificationList.parse(
        await api.get('notifications/', { query: { read: 'false', limit: 1 }, signal, silent: true }),
      ).unread,
  });
export const useUnreadCount = (enabled = true) => useQuery({ ...unreadCountQueryOptions(), enabled });

export const refreshNotifications = () => queryClient.invalidateQueries({ queryKey: notificationKeys.all });

/** POST notifications/{id}/read/ or …/unread/ → 204. */
export const markNotification = (id: number, read: boolean) =>
  api.post<void>(`notifications/${id}/${read ? 'read' : 'unread'}/`, undefined, silent);
export const useMarkNotification = () =>
  useMutation({
    mutationFn: ({ id, read }: { id: number; read: boolean }) => markNotification(id, read),
    onSettled: refreshNotifications,
  });

/** POST notifications/read_all/ → 204. */
export const markAllNotificationsRead = () => api.post<void>('notifications/read_all/', undefined, silent);
export const useMarkAllNotificationsRead = () =>
  useMutation({ mutationFn: markAllNotificationsRead, onSettled: refreshNotifications });

/**
 * POST notifications/read_all/?task=…: opening a task reads what was said about it, however the
 * task was reached (a mail, a pop-up, the matrix), as following the notification itself does (issue
 * 39, item 13). Asked only while the badge counts unread notifications, so an ordinary task visit
 * costs no request.
 */
export function useReadOpenedTask() {
  const taskId = Number(useMatch(paths.app.task(':taskId'))?.params.taskId);
  const { data: unread } = useUnreadCount();
  // Once per opening: what arrives while the screen stays open (a live mention) stays unread.
  const opened = useRef<number | null>(null);
  useEffect(() => {
    if (!Number.isSafeInteger(taskId) || taskId <= 0) {
      opened.current = null;
      return;
    }
    if (unread === undefined || opened.current === taskId) return;
    opened.current = taskId;
    if (unread === 0) return;
    void api
      .post<void>('notifications/read_all/', undefined, { ...silent, query: { task: taskId } })
      .then(refreshNotifications, () => undefined);
  }, [taskId, unread]);
}
