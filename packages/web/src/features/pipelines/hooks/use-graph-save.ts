import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  connectOrphans,
  findCycle,
  findOrphans,
  validateGraph,
  type TGraphErrorCode,
  type TGraphSaveResult,
} from '@stageline/shared';
import { ApiError } from '../../../shared/api';
import { pipelineQuery, saveGraph } from '../api';
import type { TEditorStore } from '../lib/editor-store';
import { buildGraphSave, makeFlowEdge, tasksRemovedBy } from '../lib/graph-model';
import { clearPipelineState } from '../lib/local-state';

export type TSaveQuestion = 'tasks' | 'orphans' | 'conflict';
export type TSaveAnswer = 'yes' | 'no' | 'connect' | 'skip' | 'reload' | 'overwrite';

/**
 * Saving the graph: the shared graph rules first, then the questions (tasks the deletions remove,
 * unconnected stages), then PUT with the version loaded; a 409 asks to reload or overwrite and
 * loops with the fresh version (docs/rules.md §Pipelines: the local copy stays until the user
 * chooses). Resolves with the server's answer, or null when nothing was saved.
 */
export function useGraphSave({
  store,
  pipelineId,
  ask,
  showError,
  graphError,
  onReloaded,
}: {
  store: TEditorStore;
  pipelineId: number;
  ask: (question: TSaveQuestion, payload?: number) => Promise<string>;
  showError: (message: string | null, options?: { nodes?: readonly string[] }) => void;
  graphError: (code: TGraphErrorCode) => string;
  onReloaded: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);

  const put = useCallback(
    async (firstVersion: number): Promise<TGraphSaveResult | null> => {
      let version = firstVersion;
      for (;;) {
        try {
          const result = await saveGraph(pipelineId, buildGraphSave(store.getState(), version));
          store.getState().saved(result);
          const { id_map: _ignored, ...fresh } = result;
          queryClient.setQueryData(pipelineQuery(pipelineId).queryKey, fresh);
          clearPipelineState(pipelineId);
          showError(null);
          return result;
        } catch (failure) {
          if (failure instanceof ApiError && failure.status === 409) {
            const choice = await ask('conflict');
            if (choice !== 'reload' && choice !== 'overwrite') return null;
            const fresh = await queryClient.fetchQuery({ ...pipelineQuery(pipelineId), staleTime: 0 });
            if (choice === 'overwrite') {
              version = fresh.version;
              continue;
            }
            store.getState().reset(fresh);
            clearPipelineState(pipelineId);
            onReloaded();
            return null;
          }
          if (failure instanceof ApiError && failure.code === 'pipeline_cycle') {
            const s = store.getState();
            const cycle = findCycle(
              s.nodes.map((n) => n.id),
              s.edges,
            );
            showError(graphError('pipeline_cycle'), { nodes: cycle ?? [] });
            return null;
          }
          showError(failure instanceof ApiError ? failure.message : t('Data was not saved'));
          return null;
        }
      }
    },
    [store, pipelineId, queryClient, ask, showError, graphError, onReloaded, t],
  );

  const save = useCallback(async (): Promise<TGraphSaveResult | null> => {
    const s = store.getState();
    const graphNodes = s.nodes.map((n) => ({ id: n.id, kind: n.data.kind }));
    const errors = validateGraph(graphNodes, s.edges);
    if (errors.length > 0) {
      const first = errors[0]!;
      showError(graphError(first.code), { nodes: first.nodes?.map(String) ?? [] });
      return null;
    }
    const removed = tasksRemovedBy(s, s.pipeline);
    if (removed > 0 && (await ask('tasks', removed)) !== 'yes') return null;
    const orphans = findOrphans(graphNodes, s.edges);
    if (orphans.noInput.length + orphans.noOutput.length > 0) {
      const choice = await ask('orphans', new Set([...orphans.noInput, ...orphans.noOutput]).size);
      if (choice === 'no') return null;
      if (choice === 'connect') {
        const current = store.getState();
        const connected = connectOrphans(graphNodes, current.edges);
        current.setEdges([
          ...current.edges,
          ...connected.slice(current.edges.length).map((e) => makeFlowEdge(e.source, e.target)),
        ]);
      }
    }
    setSaving(true);
    try {
      return await put(store.getState().version);
    } finally {
      setSaving(false);
    }
  }, [store, ask, put, showError, graphError]);

  return { save, saving };
}
