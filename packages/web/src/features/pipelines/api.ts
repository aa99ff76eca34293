import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  ZGraphSaveResult,
  ZPipelineNode,
  ZStage,
  type TGraphSave,
  type TStage,
  type TStageReviewRules,
  type TPipeline,
  type TPipelineNode,
  type TStageSettings,
} from '@stageline/shared';
import { api } from '../../shared/api';
import { getPipelineRecord, pipelineKeys } from './crud-api';
import { queryClient } from '../../shared/api/query-client';
import { useProject } from '../projects';
import { useMembers } from '../workspaces';

/** GET pipelines/{id}/: the graph with counters and the version a save must send back. */
export const pipelineQuery = (pipelineId: number) =>
  queryOptions({
    queryKey: pipelineKeys.detail(pipelineId),
    queryFn: ({ signal }) => getPipelineRecord(pipelineId, signal, false),
  });
export const usePipeline = (pipelineId: number) => useQuery(pipelineQuery(pipelineId));

/**
 * The people a stage may default to: members of the project's workspace who accepted. One fetcher
 * per endpoint: the project comes from the projects feature, the members from the workspaces one.
 */
export function useStageMembers(projectId: number) {
  const project = useProject(projectId);
  return useMembers(project.data?.workspace);
}

/** PUT pipelines/{id}/graph/; 409 on a stale version, 400 `pipeline_cycle`. Errors stay with the caller. */
export async function saveGraph(pipelineId: number, body: TGraphSave) {
  return ZGraphSaveResult.parse(await api.put(`pipelines/${pipelineId}/graph/`, body, { silent: true }));
}

export async function patchStage(stageId: number, changes: Partial<TStageSettings>): Promise<TPipelineNode> {
  return ZPipelineNode.parse(await api.patch(`stages/${stageId}/`, changes, { silent: true }));
}

/** GET stages/{id}/: one stage with its teams and review rules (docs/review-rules.md). */
export const stageQuery = (stageId: number) =>
  queryOptions({
    queryKey: ['stages', stageId],
    queryFn: async ({ signal }) => ZStage.parse(await api.get(`stages/${stageId}/`, { signal, silent: true })),
  });

/** PATCH stages/{id}/ with only the review rules; the stage's cached answer is replaced. */
export async function patchStageRules(stageId: number, rules: TStageReviewRules): Promise<TStage> {
  const stage = ZStage.parse(await api.patch(`stages/${stageId}/`, rules, { silent: true }));
  queryClient.setQueryData(['stages', stageId], stage);
  return stage;
}

export async function bulkPatchStages(stages: number[], changes: Partial<TStageSettings>): Promise<void> {
  await api.post('stages/bulk_update/', { stages, changes }, { silent: true });
}

/** The cached pipeline with some of its stages' settings replaced. */
export function withStages(pipeline: TPipeline, stages: readonly TPipelineNode[]): TPipeline {
  const byId = new Map(stages.map((s) => [s.id, s]));
  return { ...pipeline, nodes: pipeline.nodes.map((n) => byId.get(n.id) ?? n) };
}
