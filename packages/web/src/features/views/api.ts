import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { ZView, type TViewCreate, type TViewPatch, type TView } from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';

/**
 * Saved views (docs/decisions.md, entry 66): one owner for `['views', …]`; every answer is parsed by
 * its schema. Calls are `silent`: the dialogs say what went wrong.
 */
type TViewKind = TView['kind'];
const silent = { silent: true } as const;

export const viewKeys = {
  all: ['views'] as const,
  list: (projectId: number, kind: TViewKind) => ['views', projectId, kind] as const,
};

/** GET views/?project=&kind=: the caller's views of a project and its shared ones, by name. */
export const viewsQueryOptions = (projectId: number, kind: TViewKind) =>
  queryOptions({
    queryKey: viewKeys.list(projectId, kind),
    queryFn: async ({ signal }) =>
      z.array(ZView).parse(await api.get('views/', { query: { project: projectId, kind }, signal, silent: true })),
    staleTime: 30_000,
  });

const refresh = () => queryClient.invalidateQueries({ queryKey: viewKeys.all });

export async function createView(body: TViewCreate): Promise<TView> {
  const view = ZView.parse(await api.post('views/', body, silent));
  await refresh();
  return view;
}

export async function updateView(id: number, patch: TViewPatch): Promise<TView> {
  const view = ZView.parse(await api.patch(`views/${id}/`, patch, silent));
  await refresh();
  return view;
}

export async function deleteView(id: number): Promise<void> {
  await api.delete(`views/${id}/`, silent);
  await refresh();
}

/** The URL query a view stands for: its filters, and its sort unless it is the screen's default. */
export function viewSearch(view: Pick<TView, 'filters' | 'sort'>): string {
  const query = new URLSearchParams(view.filters);
  if (view.sort) query.set('sort', view.sort);
  return query.toString();
}

/** The filters and sort of a screen's URL query, as a view keeps them. */
export function viewOfSearch(search: URLSearchParams): { filters: Record<string, string>; sort: string | null } {
  const filters: Record<string, string> = {};
  for (const [key, value] of search) if (key !== 'sort' && value) filters[key] = value;
  return { filters, sort: search.get('sort') };
}
