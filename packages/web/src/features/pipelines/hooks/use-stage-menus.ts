import { useCallback, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegisterCommands } from '../../../shared/lib/commands';
import type { TContextMenuAt } from '../components/stage-context-menu';
import type { TEditorStore } from '../lib/editor-store';
import type { TFlowNode } from '../lib/graph-model';

/**
 * The other ways to a stage's settings besides a double click (decision 201): its context menu
 * (the stage becomes the selection, the menu opens at the pointer) and the command palette's
 * "Add stage" and "Stage settings" for the selection.
 */
export function useStageMenus({
  store,
  selectedIds,
  selectedCount,
  addStage,
  openSettings,
}: {
  store: TEditorStore;
  selectedIds: () => string[];
  selectedCount: number;
  addStage: () => void;
  openSettings: (ids: string[]) => void;
}) {
  const { t } = useTranslation();
  const [contextAt, setContextAt] = useState<TContextMenuAt | null>(null);
  const onNodeContextMenu = useCallback(
    (event: MouseEvent, node: TFlowNode) => {
      if (node.data.kind !== 'stage') return;
      event.preventDefault();
      const s = store.getState();
      s.onNodesChange(s.nodes.map((n) => ({ type: 'select', id: n.id, selected: n.id === node.id })));
      setContextAt({ x: event.clientX, y: event.clientY, nodeId: node.id });
    },
    [store],
  );
  const deleteStage = useCallback(
    (id: string) => {
      store.getState().onNodesChange([{ type: 'remove', id }]);
      store.getState().commit();
    },
    [store],
  );
  useRegisterCommands('flow-editor', [
    { id: 'flow.add-stage', label: t('Add stage'), run: addStage },
    ...(selectedCount > 0
      ? [
          {
            id: 'flow.stage-settings',
            label: selectedCount === 1 ? t('Stage settings') : t('Edit {{count}} stages', { count: selectedCount }),
            run: () => openSettings(selectedIds()),
          },
        ]
      : []),
  ]);
  return {
    onNodeContextMenu,
    contextMenu: {
      at: contextAt,
      onClose: () => setContextAt(null),
      onSettings: (id: string) => openSettings([id]),
      onDelete: deleteStage,
    },
  };
}
