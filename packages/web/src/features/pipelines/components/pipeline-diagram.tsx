import '@xyflow/react/dist/style.css';
import { useComputedColorScheme } from '@mantine/core';
import { Background, Controls, MiniMap, ReactFlow, type ReactFlowProps } from '@xyflow/react';
import type { TFlowEdge, TFlowNode } from '../lib/graph-model';
import { FlowActionsContext, type TFlowActions } from './flow-actions';
import { edgeTypes } from './flow-edge';
import { nodeTypes } from './flow-nodes';

const minimapColor = (node: TFlowNode) =>
  node.data.kind === 'root'
    ? 'var(--mantine-color-teal-5)'
    : node.data.kind === 'end'
      ? 'var(--mantine-color-grape-5)'
      : 'var(--mantine-color-gray-5)';

const fitViewOptions = { padding: 0.15, maxZoom: 1.25 };
const proOptions = { hideAttribution: true };

/**
 * The pipeline diagram, shared by the pipeline screen (read-only, with counters) and the flow
 * editor (with `actions`). Colours come from Mantine's variables, so both themes follow the app.
 */
export function PipelineDiagram({
  actions,
  children,
  ...props
}: ReactFlowProps<TFlowNode, TFlowEdge> & { actions?: TFlowActions }) {
  const scheme = useComputedColorScheme('light');
  return (
    <FlowActionsContext.Provider value={actions ?? null}>
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
        {...props}
      >
        <Background gap={20} />
        <MiniMap<TFlowNode> pannable zoomable nodeColor={minimapColor} />
        <Controls showInteractive={false} />
        {children}
      </ReactFlow>
    </FlowActionsContext.Provider>
  );
}
