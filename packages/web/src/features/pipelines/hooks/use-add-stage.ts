import { useReactFlow } from '@xyflow/react';
import { useCallback, type DragEvent, type MouseEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Limits, type TGraphErrorCode } from '@stageline/shared';
import { DragType } from '../components/flow-toolbar';
import type { TEditorStore } from '../lib/editor-store';
import { NodeSizes, type TFlowNode } from '../lib/graph-model';
import type { TPoint } from '../lib/layout';
import { nextSpot, overlaps } from '../lib/placement';

/**
 * Adding stages: beside the selection (the toolbar's button), at a point of the canvas (a double
 * click on the pane, the palette item dropped), or after a node by keyboard (connected from it). One path to the
 * store's `addStage`, with the stage limit checked first.
 */
export function useAddStage({
  store,
  canvasRef,
  showError,
  graphError,
  announce,
}: {
  store: TEditorStore;
  canvasRef: RefObject<HTMLDivElement | null>;
  showError: (message: string | null, options?: { transient?: boolean }) => void;
  graphError: (code: TGraphErrorCode) => string;
  announce: (message: string) => void;
}) {
  const { t } = useTranslation();
  const flow = useReactFlow<TFlowNode>();
  /** Adds a stage at `at` unless the limit is reached; `free` steps it off other nodes first. */
  const placeStage = useCallback(
    (at: TPoint, free: (spot: TPoint) => boolean, step: TPoint, after?: string): string | null => {
      const s = store.getState();
      const count = s.nodes.filter((n) => n.data.kind === 'stage').length;
      if (count >= Limits.pipelineStages.max) {
        showError(graphError('too_many_stages'), { transient: true });
        announce(graphError('too_many_stages'));
        return null;
      }
      const spot = { ...at };
      for (let i = 0; i < 200 && !free(spot); i += 1) {
        spot.x += step.x;
        spot.y += step.y;
      }
      return s.addStage(spot, t('Stage {{number}}', { number: count + 1 }), after);
    },
    [store, t, showError, graphError, announce],
  );
  const addStageAt = useCallback(
    (clientX: number, clientY: number) => {
      const point = flow.screenToFlowPosition({ x: clientX, y: clientY });
      const at = { x: point.x - NodeSizes.stage.width / 2, y: point.y - NodeSizes.stage.height / 2 };
      // Never drop a stage exactly over another one: step down and right until the spot is free.
      const nodes = store.getState().nodes;
      const free = (spot: TPoint) =>
        !nodes.some((n) => Math.abs(n.position.x - spot.x) < 24 && Math.abs(n.position.y - spot.y) < 24);
      placeStage(at, free, { x: 32, y: 32 });
    },
    [store, flow, placeStage],
  );
  const addStageAfter = useCallback(
    (at: TPoint, after: string) => {
      // After a stage, by keyboard: step across the flow until no node is in the way.
      const nodes = store.getState().nodes;
      const step = store.getState().layout === 'horizontal' ? { x: 0, y: 100 } : { x: 240, y: 0 };
      return placeStage(at, (spot) => !overlaps(nodes, spot), step, after);
    },
    [store, placeStage],
  );
  /**
   * The toolbar's "Add stage" (decision 200): beside the selected stage, or the last stage added (or
   * Start), in the first free spot along the flow, connected from nothing; then scrolled into view.
   */
  const addStageNext = useCallback(() => {
    const s = store.getState();
    const id = placeStage(nextSpot(s.nodes, s.layout), () => true, { x: 0, y: 0 });
    if (!id) return;
    const rect = canvasRef.current?.getBoundingClientRect();
    const added = store.getState().nodes.find((n) => n.id === id);
    if (!rect || !added) return;
    const { width, height } = NodeSizes.stage;
    const topLeft = flow.flowToScreenPosition(added.position);
    const bottomRight = flow.flowToScreenPosition({ x: added.position.x + width, y: added.position.y + height });
    const inside =
      topLeft.x >= rect.left && topLeft.y >= rect.top && bottomRight.x <= rect.right && bottomRight.y <= rect.bottom;
    if (!inside) {
      void flow.setCenter(added.position.x + width / 2, added.position.y + height / 2, { zoom: flow.getZoom() });
    }
  }, [store, placeStage, canvasRef, flow]);
  const onPaneDoubleClick = useCallback(
    (event: MouseEvent) => {
      if ((event.target as Element).classList.contains('react-flow__pane')) addStageAt(event.clientX, event.clientY);
    },
    [addStageAt],
  );
  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(DragType)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  }, []);
  const onDrop = useCallback(
    (event: DragEvent) => {
      if (!event.dataTransfer.types.includes(DragType)) return;
      event.preventDefault();
      addStageAt(event.clientX, event.clientY);
    },
    [addStageAt],
  );
  return { at: addStageAt, after: addStageAfter, next: addStageNext, onPaneDoubleClick, onDragOver, onDrop };
}
