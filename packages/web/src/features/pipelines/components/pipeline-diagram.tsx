import '@xyflow/react/dist/style.css';
import { Center, Loader, useComputedColorScheme } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Background, Controls, MiniMap, ReactFlow, useStore, type ReactFlowProps } from '@xyflow/react';
import { memo, useEffect, useMemo, useRef } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { needsLayout, type TFlowEdge, type TFlowNode } from '../lib/graph-model';
import { LargeGraph, type TPoint } from '../lib/layout';
import { FarLinks } from './far-links';
import { FlowActionsContext, type TFlowActions } from './flow-actions';
import { EdgeRoutesContext, edgeTypes } from './flow-edge';
import classes from './flow.module.css';
import { nodeTypes, TinyZoom } from './flow-nodes';

const minimapColor = (node: TFlowNode) =>
  node.data.kind === 'root'
    ? 'var(--mantine-color-teal-5)'
    : node.data.kind === 'end'
      ? 'var(--mantine-color-grape-5)'
      : 'var(--mantine-color-gray-5)';

/**
 * Each node's name for assistive technology, as a "stage"; cached per node object, so a drag frame
 * relabels only the moved nodes and React Flow sees the others unchanged.
 */
function nodeLabeller(t: TFunction) {
  const cache = new WeakMap<TFlowNode, TFlowNode>();
  const description = { 'aria-roledescription': t('stage') };
  return (n: TFlowNode) => {
    let out = cache.get(n);
    if (!out) {
      const name = n.data.kind === 'root' ? t('Start') : n.data.kind === 'end' ? t('End') : n.data.name;
      out = { ...n, ariaLabel: name, domAttributes: description };
      cache.set(n, out);
    }
    return out;
  };
}

const fitViewOptions = { padding: 0.15, maxZoom: 1.25 };
const proOptions = { hideAttribution: true };
const none: never[] = [];

/**
 * The pipeline diagram, shared by the pipeline screen (read-only, with counters) and the flow
 * editor (with `actions`). Colours come from Mantine's variables, so both themes follow the app.
 * Stages that still wait for their layout (all at one point) are not drawn: a loader shows until
 * they have positions, so a large pipeline never renders every node stacked at the origin.
 * `highlightStageId` marks one stage (the task screen's Diagram tab shows the task's stage);
 * `routes` are elk's edge routes of the last layout (`useDiagramLayout`, the editor's Organize).
 * It reads the view's zoom, so it is drawn under a `ReactFlowProvider` (`RoutePipeline`, `TaskDiagram`).
 */
export const PipelineDiagram = memo(function PipelineDiagram({
  actions,
  children,
  nodes = none,
  edges = none,
  highlightStageId,
  routes = null,
  ...props
}: ReactFlowProps<TFlowNode, TFlowEdge> & {
  actions?: TFlowActions;
  highlightStageId?: number | string | null;
  routes?: ReadonlyMap<string, TPoint[]> | null;
}) {
  const scheme = useComputedColorScheme('light');
  const roomy = useMediaQuery('(min-width: 576px)', true);
  const { t } = useTranslation();
  const placed = !needsLayout(nodes);
  // Far out (below `TinyZoom`, where the whole of a large pipeline is in view) the links are one path
  // (`FarLinks`), not React Flow's edges, and there is no minimap; a large pipeline counts as far out
  // until its first fit, so neither is drawn at the zoom before it (decisions 136 and 137).
  const large = nodes.length >= LargeGraph;
  const far = useStore((s) => s.transform[2] < TinyZoom || (large && s.fitViewQueued));
  const labelled = useMemo(() => nodeLabeller(t), [t]);
  const shown = useMemo(() => {
    const id = highlightStageId == null ? null : String(highlightStageId);
    // `stage-current` is a stable hook for tests; the module class draws the mark.
    return nodes.map((n) => {
      const node = labelled(n);
      return n.id === id ? { ...node, className: `${classes.current} stage-current` } : node;
    });
  }, [nodes, highlightStageId, labelled]);
  const ariaLabelConfig = useMemo(
    () => ({
      'node.a11yDescription.default': t('Press Enter or Space to select a stage.'),
      'node.a11yDescription.keyboardDisabled': t('Press Enter or Space to select a stage.'),
      'edge.a11yDescription.default': t('Press Enter or Space to select a connection; Delete removes it.'),
      'controls.ariaLabel': t('Diagram controls'),
      'controls.zoomIn.ariaLabel': t('Zoom in'),
      'controls.zoomOut.ariaLabel': t('Zoom out'),
      'controls.fitView.ariaLabel': t('Fit the diagram'),
      'minimap.ariaLabel': t('Mini map'),
      ...props.ariaLabelConfig,
    }),
    [t, props.ariaLabelConfig],
  );
  useFirstRenderMarks(placed && nodes.length > 0);
  return (
    <FlowActionsContext.Provider value={actions ?? null}>
      <EdgeRoutesContext.Provider value={routes}>
        <ReactFlow<TFlowNode, TFlowEdge>
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          colorMode={scheme}
          fitView
          fitViewOptions={fitViewOptions}
          minZoom={0.05}
          onlyRenderVisibleElements
          proOptions={proOptions}
          data-testid="flow-canvas"
          data-placed={placed ? 'true' : 'false'}
          nodes={placed ? shown : none}
          edges={placed && !far ? edges : none}
          {...props}
          ariaLabelConfig={ariaLabelConfig}
        >
          <Background gap={20} />
          {/* On a phone the minimap would cover a third of the canvas. Far out the canvas is its own
              overview: no minimap then, a component and a subscription per stage (decision 136). */}
          {roomy && !far ? <MiniMap<TFlowNode> pannable zoomable nodeColor={minimapColor} /> : null}
          <Controls showInteractive={false} />
          {placed && far && edges.length > 0 ? <FarLinks nodes={nodes} edges={edges} routes={routes} /> : null}
          {children}
          {placed ? null : (
            <Center className={classes.loading} data-testid="flow-layout-pending">
              <Loader />
            </Center>
          )}
        </ReactFlow>
      </EdgeRoutesContext.Provider>
    </FlowActionsContext.Provider>
  );
});

/**
 * `pipeline:layout-done` when the diagram first has positions, `pipeline:first-render` after the
 * frame that draws them: the marks `npm run bench` reads (bench/pipeline-editor.bench.ts).
 */
function useFirstRenderMarks(ready: boolean) {
  const marked = useRef(false);
  useEffect(() => {
    if (!ready || marked.current) return;
    marked.current = true;
    performance.mark('pipeline:layout-done');
    requestAnimationFrame(() => setTimeout(() => performance.mark('pipeline:first-render'), 0));
  }, [ready]);
}
