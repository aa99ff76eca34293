import { useInfiniteQuery, useMutation, type InfiniteData } from '@tanstack/react-query';
import { ZComment, ZCommentList, type TComment, type TCommentList, type TLiveEvent } from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';

/**
 * Comment calls (docs/rules.md §API). Calls are `silent`: the panel says 'Data was not saved' itself
 * (docs/rules.md §Web). A thread is one infinite query, newest page last: the first load shows the latest
 * page and 'Show earlier' prepends older ones. Answers of the panel's own calls and live `comment`
 * events are written into the cache by id, so both paths agree and nothing is shown twice.
 */
export type TCommentTarget = { task: number } | { unit: number };

/** Comments on one screen: the page size of a thread. */
export const commentPageSize = 20;

export const commentKeys = {
  all: ['comments'] as const,
  thread: (target: TCommentTarget) => ['comments', target] as const,
};

const silent = { silent: true } as const;

/** One page of a thread: where it starts in the oldest-first list, and the total at that time. */
export type TCommentPage = { offset: number; count: number; results: TComment[] };
/** `tail`: the latest page, wherever it starts. */
type TPageParam = { offset: number; limit: number } | 'tail';

const fetchList = async (target: TCommentTarget, offset: number, limit: number, signal?: AbortSignal) =>
  ZCommentList.parse(await api.get('comments/', { query: { ...target, offset, limit }, signal, silent: true }));

/** GET comments/?task=|unit=: the latest page (two calls when the thread is longer than one page). */
export async function getCommentPage(
  target: TCommentTarget,
  param: TPageParam,
  signal?: AbortSignal,
): Promise<TCommentPage> {
  if (param !== 'tail') {
    const list = await fetchList(target, param.offset, param.limit, signal);
    return { offset: param.offset, count: list.count, results: list.results };
  }
  let list: TCommentList = await fetchList(target, 0, commentPageSize, signal);
  let offset = 0;
  if (list.count > commentPageSize) {
    offset = list.count - commentPageSize;
    list = await fetchList(target, offset, commentPageSize, signal);
  }
  return { offset, count: list.count, results: list.results };
}

export const useCommentThread = (target: TCommentTarget) =>
  useInfiniteQuery<TCommentPage, Error, InfiniteData<TCommentPage>, ReturnType<typeof commentKeys.thread>, TPageParam>({
    queryKey: commentKeys.thread(target),
    queryFn: ({ pageParam, signal }) => getCommentPage(target, pageParam, signal),
    initialPageParam: 'tail',
    getNextPageParam: () => undefined,
    getPreviousPageParam: (first): TPageParam | undefined => {
      if (first.offset <= 0) return undefined;
      const offset = Math.max(0, first.offset - commentPageSize);
      return { offset, limit: first.offset - offset };
    },
  });

/** The comments of a thread, oldest first, each once (pages may overlap after the thread grew). */
export function flattenThread(data: InfiniteData<TCommentPage> | undefined): TComment[] {
  const seen = new Map<number, TComment>();
  for (const page of data?.pages ?? []) for (const comment of page.results) seen.set(comment.id, comment);
  return [...seen.values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
}

const targetOf = (comment: TComment): TCommentTarget | null =>
  comment.task !== null ? { task: comment.task } : comment.unit !== null ? { unit: comment.unit } : null;

type TAction = 'created' | 'updated' | 'deleted';

/** Applies one change to the cached thread of the comment's task or unit (if that thread is loaded). */
export function applyComment(action: TAction, comment: TComment): void {
  const target = targetOf(comment);
  if (!target) return;
  queryClient.setQueryData<InfiniteData<TCommentPage>>(commentKeys.thread(target), (data) => {
    if (!data) return data;
    const known = data.pages.some((page) => page.results.some((c) => c.id === comment.id));
    const delta = action === 'created' && !known ? 1 : action === 'deleted' && known ? -1 : 0;
    const pages = data.pages.map((page, index) => {
      let results = page.results;
      if (action === 'deleted') results = results.filter((c) => c.id !== comment.id);
      else if (known) results = results.map((c) => (c.id === comment.id ? comment : c));
      else if (action === 'created' && index === data.pages.length - 1) results = [...results, comment];
      return { ...page, count: page.count + delta, results };
    });
    return { ...data, pages };
  });
}

/** What a live `comment` event does: the thread it belongs to changes in place. */
export function applyCommentEvent(event: Extract<TLiveEvent, { type: 'comment' }>['data']): void {
  applyComment(event.action, event.comment);
}

/** POST comments/ → 201 the comment. */
export const createComment = async (target: TCommentTarget, text: string) =>
  ZComment.parse(await api.post('comments/', { ...target, text }, silent));
export const useCreateComment = (target: TCommentTarget) =>
  useMutation({
    mutationFn: (text: string) => createComment(target, text),
    onSuccess: (comment) => applyComment('created', comment),
  });

/** PATCH comments/{id}/ (the author only). */
export const updateComment = async (id: number, text: string) =>
  ZComment.parse(await api.patch(`comments/${id}/`, { text }, silent));
export const useUpdateComment = () =>
  useMutation({
    mutationFn: ({ id, text }: { id: number; text: string }) => updateComment(id, text),
    onSuccess: (comment) => applyComment('updated', comment),
  });

/** DELETE comments/{id}/ (the author, or Admin+). */
export const useDeleteComment = () =>
  useMutation({
    mutationFn: async (comment: TComment) => {
      await api.delete(`comments/${comment.id}/`, silent);
      return comment;
    },
    onSuccess: (comment) => applyComment('deleted', comment),
  });
