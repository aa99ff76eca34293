import { Box, Center, Loader } from '@mantine/core';
import { ReactFlowProvider } from '@xyflow/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TPipeline } from '@stageline/shared';
import { PipelineDiagram, pipelineToSnapshot, useDiagramLayout, usePipeline } from '../../pipelines/read-only';
import { LoadError } from '../../../shared/ui/load-error';

/** The Diagram tab: the task's pipeline, read-only, with the task's stage marked. */
export function TaskDiagram({ pipelineId, stageId }: { pipelineId: number; stageId: number }) {
  const { t } = useTranslation();
  const pipeline = usePipeline(pipelineId);
  if (pipeline.isPending)
    return (
      <Center mih={300}>
        <Loader aria-label={t('Loading...')} />
      </Center>
    );
  if (pipeline.isError) return <LoadError retry={pipeline} />;
  return (
    <ReactFlowProvider>
      <Diagram pipeline={pipeline.data} stageId={stageId} />
    </ReactFlowProvider>
  );
}

function Diagram({ pipeline, stageId }: { pipeline: TPipeline; stageId: number }) {
  const base = useMemo(() => pipelineToSnapshot(pipeline), [pipeline]);
  const { nodes, routes } = useDiagramLayout(base);
  return (
    <Box
      h={480}
      data-testid="task-diagram"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
    >
      <PipelineDiagram
        nodes={nodes}
        edges={base.edges}
        routes={routes}
        highlightStageId={stageId}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        deleteKeyCode={null}
      />
    </Box>
  );
}
