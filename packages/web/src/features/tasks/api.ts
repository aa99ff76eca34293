import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  ZTask,
  ZTaskList,
  type TTask,
  type ZReject,
  type ZReview,
  type ZTaskListQuery,
  type ZTaskPatch,
} from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';
import { pipelineKeys } from '../pipelines/crud';
import { taskChanged } from '../units';

/**
 * Task calls (docs/rules.md §API). Every call is `silent`: the task screen says 'Task update error' with
 * the server's detail itself (docs/rules.md §Web). A changed task is put under its own key and the lists
 * that may show it (My work, the unit, the matrix) are refreshed.
 */
export type TTaskPatch = z.infer<typeof ZTaskPatch>;
export type TReview = z.infer<typeof ZReview>;
export type TReject = z.infer<typeof ZReject>;
export type TTaskListQuery = Partial<z.infer<typeof ZTaskListQuery>>;

const silent = { silent: true } as const;

export const taskKeys = {
  all: ['tasks'] as const,
  lists: () => ['tasks', 'list'] as const,
  list: (query: TTaskListQuery) => ['tasks', 'list', query] as const,
  pages: (query: TTaskListQuery) => ['tasks', 'list', 'pages', query] as const,
  detail: (id: number) => ['tasks', id] as const,
};

/** GET tasks/{id}/: 404 for a task outside the caller's workspaces. */
export const getTask = async (id: number, signal?: AbortSignal) =>
  ZTask.parse(await api.get(`tasks/${id}/`, { signal, silent: true }));
export const taskQueryOptions = (id: number) =>
  queryOptions({ queryKey: taskKeys.detail(id), queryFn: ({ signal }) => getTask(id, signal) });

/** GET tasks/?…: one page of a filtered list (My work's sections). */
export const getTasks = async (query: TTaskListQuery, signal?: AbortSignal) =>
  ZTaskList.parse(await api.get('tasks/', { query, signal, silent: true }));
export const taskListQueryOptions = (query: TTaskListQuery) =>
  queryOptions({ queryKey: taskKeys.list(query), queryFn: ({ signal }) => getTasks(query, signal) });
export const useTaskList = (query: TTaskListQuery, enabled = true) =>
  useQuery({ ...taskListQueryOptions(query), enabled });

/**
 * The same list a page at a time ('Show more'): each page starts after the previous answer's last
 * task (`next_cursor`, key paging: a later page costs what the first does).
 */
export const taskPagesQueryOptions = (query: TTaskListQuery) =>
  infiniteQueryOptions({
    queryKey: taskKeys.pages(query),
    queryFn: ({ signal, pageParam }) => getTasks({ ...query, after: pageParam }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
export const useTaskPages = (query: TTaskListQuery) => useInfiniteQuery(taskPagesQueryOptions(query));

/** The task the server answered, in its own entry; lists, units and matrices that show it refresh. */
function remember(task: TTask) {
  queryClient.setQueryData(taskKeys.detail(task.id), task);
  void queryClient.invalidateQueries({ queryKey: taskKeys.lists() });
  taskChanged(queryClient, { id: task.id, unit: task.unit.id, pipeline: task.pipeline.id, status: task.status });
  void queryClient.invalidateQueries({ queryKey: pipelineKeys.detail(task.pipeline.id) });
}

export type TTaskCommand =
  | { kind: 'start' }
  | { kind: 'submit' }
  | { kind: 'accept'; body: TReview }
  | { kind: 'reject'; body: TReject }
  | { kind: 'patch'; body: TTaskPatch }
  // Teams and review rules (docs/review-rules.md): take from a team queue, remind the reviewers.
  | { kind: 'take' }
  | { kind: 'remind' };

/** One call per command: POST tasks/{id}/{action}/ or PATCH tasks/{id}/. */
export async function sendTaskCommand(id: number, command: TTaskCommand): Promise<TTask> {
  const answer =
    command.kind === 'patch'
      ? await api.patch(`tasks/${id}/`, command.body, silent)
      : await api.post(`tasks/${id}/${command.kind}/`, 'body' in command ? command.body : undefined, silent);
  return ZTask.parse(answer);
}

export const useTaskCommand = (id: number) =>
  useMutation({ mutationFn: (command: TTaskCommand) => sendTaskCommand(id, command), onSuccess: remember });
