import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { ZAuditPage, type TAuditQuery } from '@stageline/shared/audit';
import { api } from '../../shared/api';

/** The workspace audit log (docs/history-and-audit.md): Admins and the Owner read it a page at a time. */
export type TAuditFilters = Omit<TAuditQuery, 'before' | 'limit'>;

export const auditKeys = {
  all: ['audit'] as const,
  pages: (workspaceId: number, filters: TAuditFilters) => ['audit', workspaceId, filters] as const,
};

/** Pages of entries newest first; each next page starts before the last id seen (keyset). */
export const auditPagesQueryOptions = (workspaceId: number, filters: TAuditFilters) =>
  infiniteQueryOptions({
    queryKey: auditKeys.pages(workspaceId, filters),
    queryFn: async ({ signal, pageParam }) =>
      ZAuditPage.parse(
        await api.get(`workspaces/${workspaceId}/audit/`, {
          query: { ...filters, ...(pageParam ? { before: pageParam } : {}) },
          signal,
          silent: true,
        }),
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  });

export const useAuditPages = (workspaceId: number, filters: TAuditFilters) =>
  useInfiniteQuery(auditPagesQueryOptions(workspaceId, filters));
