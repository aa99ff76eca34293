import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  ZCountedPipelineSummary,
  ZPipeline,
  ZPipelineSummary,
  type TPipeline,
  type ZPipelineCreate,
  type ZPipelinePatch,
} from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';
import { projectKeys } from '../projects';

/**
 * Pipeline list, create, edit and delete (issue 5). The record lives under `['pipelines', id]`
 * as the whole ZPipeline, the key and shape the diagram screens read, so both share one cache
 * entry; lists live under `['pipelines', 'list', projectId]`. Calls are `silent`: the record
 * loader and the forms say what went wrong (docs/rules.md §Web).
 */
export type TPipelineCreate = z.infer<typeof ZPipelineCreate>;
export type TPipelinePatch = z.infer<typeof ZPipelinePatch>;

const silent = { silent: true } as const;

export const pipelineKeys = {
  all: ['pipelines'] as const,
  lists: () => ['pipelines', 'list'] as const,
  list: (projectId: number) => ['pipelines', 'list', projectId] as const,
  /** Under `list`: invalidating a project's list invalidates its names too. */
  names: (projectId: number) => ['pipelines', 'list', projectId, 'names'] as const,
  detail: (id: number) => ['pipelines', id] as const,
};

/**
 * GET pipelines/{id}/ (404 for a pipeline outside the caller's workspaces): the one fetcher of the
 * endpoint. Silent for the record loader, which says what went wrong; the diagram screens let the
 * transport's toast speak.
 */
export const getPipelineRecord = async (id: number, signal?: AbortSignal, silent = true) =>
  ZPipeline.parse(await api.get(`pipelines/${id}/`, { signal, silent }));
export const pipelineRecordQueryOptions = (id: number) =>
  queryOptions({ queryKey: pipelineKeys.detail(id), queryFn: ({ signal }) => getPipelineRecord(id, signal) });

/** GET pipelines/?project={id}: summaries with their task counters, without nodes and edges. */
export const getPipelines = async (projectId: number, signal?: AbortSignal) =>
  z
    .array(ZCountedPipelineSummary)
    .parse(await api.get('pipelines/', { query: { project: projectId }, signal, silent: true }));
export const pipelinesQueryOptions = (projectId: number) =>
  queryOptions({ queryKey: pipelineKeys.list(projectId), queryFn: ({ signal }) => getPipelines(projectId, signal) });
export const usePipelines = (projectId: number) => useQuery(pipelinesQueryOptions(projectId));

/**
 * GET pipelines/?project={id}&counters=false: the summaries without the task counters, which the
 * server counts over every task (docs/decisions.md, decision 120); for the screens that pick a pipeline.
 */
export const getPipelineNames = async (projectId: number, signal?: AbortSignal) =>
  z
    .array(ZPipelineSummary)
    .parse(await api.get('pipelines/', { query: { project: projectId, counters: 'false' }, signal, silent: true }));
export const pipelineNamesQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: pipelineKeys.names(projectId),
    queryFn: ({ signal }) => getPipelineNames(projectId, signal),
  });
export const usePipelineNames = (projectId: number) => useQuery(pipelineNamesQueryOptions(projectId));

/** A change of a project's pipelines changes its counters too. */
function invalidateProject(projectId: number) {
  void queryClient.invalidateQueries({ queryKey: pipelineKeys.list(projectId) });
  void queryClient.invalidateQueries({ queryKey: projectKeys.detail(projectId) });
}

/** Puts a pipeline the server answered (the whole ZPipeline) where the diagram screens read it. */
function remember(pipeline: TPipeline) {
  queryClient.setQueryData(pipelineKeys.detail(pipeline.id), pipeline);
  invalidateProject(pipeline.project);
}

/** POST pipelines/: the new pipeline with its start and end. */
export const createPipeline = async (body: TPipelineCreate) =>
  ZPipeline.parse(await api.post('pipelines/', body, silent));
export const useCreatePipeline = () => useMutation({ mutationFn: createPipeline, onSuccess: remember });

export const updatePipeline = async (id: number, body: TPipelinePatch) =>
  ZPipeline.parse(await api.patch(`pipelines/${id}/`, body, silent));
export const useUpdatePipeline = () =>
  useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: TPipelinePatch }) => updatePipeline(id, changes),
    onSuccess: remember,
  });

export const deletePipeline = (id: number) => api.delete<void>(`pipelines/${id}/`, silent);
export const useDeletePipeline = (projectId: number) =>
  useMutation({
    mutationFn: deletePipeline,
    onSuccess: (_void, id) => {
      // Not removed while its screen is still mounted: marked stale, the next visit asks again (404).
      void queryClient.invalidateQueries({ queryKey: pipelineKeys.detail(id), refetchType: 'none' });
      invalidateProject(projectId);
    },
  });
