import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ZSearchResult } from '@stageline/shared';
import { api } from '../../shared/api';

/** GET search/?q=: records named like `q` in the caller's workspaces (kept while the next loads). */
export const searchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: ['search', q] as const,
    queryFn: async ({ signal }) =>
      ZSearchResult.parse(
        await api.get<unknown>(`search/?${new URLSearchParams({ q }).toString()}`, { signal, silent: true }),
      ),
    enabled: q.trim().length > 0,
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
