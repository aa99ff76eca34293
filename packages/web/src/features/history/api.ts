import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { ZRecordChangePage, type THistoryFilter } from '@stageline/shared';
import { api } from '../../shared/api';

/** The history of a unit or a task (docs/history-and-audit.md). */
export type THistoryOf = { unit: number } | { task: number };

export const historyKeys = {
  all: ['history'] as const,
  unit: (id: number) => ['history', 'unit', id] as const,
  task: (id: number) => ['history', 'task', id] as const,
};

const keyOf = (of: THistoryOf) => ('unit' in of ? historyKeys.unit(of.unit) : historyKeys.task(of.task));

/** Pages of changes newest first; each next page starts before the last id seen (keyset). */
export const historyPagesQueryOptions = (of: THistoryOf, only: THistoryFilter) =>
  infiniteQueryOptions({
    queryKey: [...keyOf(of), only] as const,
    queryFn: async ({ signal, pageParam }) =>
      ZRecordChangePage.parse(
        await api.get('unit' in of ? `units/${of.unit}/history/` : `tasks/${of.task}/history/`, {
          query: { only, ...(pageParam ? { before: pageParam } : {}) },
          signal,
          silent: true,
        }),
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  });

export const useHistoryPages = (of: THistoryOf, only: THistoryFilter) =>
  useInfiniteQuery(historyPagesQueryOptions(of, only));
