import { Alert, Box, Center, Loader } from '@mantine/core';
import { ReactFlowProvider, useReactFlow } from '@xyflow/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TPipeline } from '@stageline/shared';
import {
  layoutGraph,
  needsLayout,
  PipelineDiagram,
  pipelineToSnapshot,
  quickPositions,
  usePipeline,
  type TFlowNode,
} from '../../pipelines/read-only';

/** The Diagram tab: the task's pipeline, read-only, with the task's stage marked. */
export function TaskDiagram({ pipelineId, stageId }: { pipelineId: number; stageId: number }) {
  const { t } = useTranslation();
  const pipeline = usePipeline(pipelineId);
  if (pipeline.isPending)
    return (
      <Center mih={300}>
        <Loader />
      </Center>
    );
  if (pipeline.isError) return <Alert color="red">{t('Error while loading data')}</Alert>;
  return (
    <ReactFlowProvider>
      <Diagram pipeline={pipeline.data} stageId={stageId} />
    </ReactFlowProvider>
  );
}

function Diagram({ pipeline, stageId }: { pipeline: TPipeline; stageId: number }) {
  const flow = useReactFlow<TFlowNode>();
  const base = useMemo(() => pipelineToSnapshot(pipeline), [pipeline]);
  const unplaced = needsLayout(base.nodes);
  const [positions, setPositions] = useState<Map<string, { x: number; y: number }> | null>(null);
  // Saved without positions: the quick layout shows at once, elk's replaces it when ready.
  const quick = useMemo(() => (unplaced ? quickPositions(base) : null), [unplaced, base]);
  useEffect(() => {
    if (!unplaced) return;
    let live = true;
    void layoutGraph(
      base.nodes.map((n) => ({ id: n.id })),
      base.edges,
      base.layout,
    ).then((result) => {
      if (!live) return;
      setPositions(result);
      requestAnimationFrame(() => void flow.fitView({ padding: 0.15, maxZoom: 1.25 }));
    });
    return () => {
      live = false;
    };
  }, [unplaced, base, flow]);
  const nodes = useMemo(
    () =>
      unplaced
        ? base.nodes.map((n) => ({ ...n, position: (positions ?? quick)?.get(n.id) ?? n.position }))
        : base.nodes,
    [base.nodes, positions, quick, unplaced],
  );
  return (
    <Box
      h={480}
      data-testid="task-diagram"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
    >
      <PipelineDiagram
        nodes={nodes}
        edges={base.edges}
        highlightStageId={stageId}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        deleteKeyCode={null}
      />
    </Box>
  );
}
