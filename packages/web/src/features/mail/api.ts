import { queryOptions } from '@tanstack/react-query';
import { ZOutboxMail, type TOutboxMail } from '@stageline/shared';
import { api } from '../../shared/api';

/** Newest first, whatever order the server used. */
export function newestFirst(mails: TOutboxMail[]): TOutboxMail[] {
  return [...mails].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
}

/** GET dev/outbox/ (`ZOutboxMail` list) every 3 s; a 404 means mail goes out through SMTP. */
export const outboxQueryOptions = () =>
  queryOptions({
    queryKey: ['dev', 'outbox'],
    queryFn: async ({ signal }) =>
      newestFirst(
        ZOutboxMail.array().parse(await api.get<unknown>('dev/outbox/', { signal, silent: true, anonymous: true })),
      ),
    refetchInterval: (query) => ((query.state.error as { status?: number } | null)?.status === 404 ? false : 3000),
    retry: false,
  });
