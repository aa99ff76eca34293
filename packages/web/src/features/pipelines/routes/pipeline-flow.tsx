import { Alert, Center, Loader } from '@mantine/core';
import { ReactFlowProvider } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { usePipeline } from '../api';
import { FlowEditor } from '../components/flow-editor';
import { usePipelineRouteIds } from '../hooks/use-route-ids';

/** `.../pipelines/{pipelineId}/edit_flow`: the diagram editor (React Flow and elk load with this chunk). */
export default function PipelineFlowScreen() {
  const { t } = useTranslation();
  const ids = usePipelineRouteIds();
  const pipeline = usePipeline(ids?.pipelineId ?? 0);
  if (!ids) return <Alert color="red">{t('Error loading context: no id provided')}</Alert>;
  if (pipeline.isPending)
    return (
      <Center mih={300}>
        <Loader />
      </Center>
    );
  if (pipeline.isError)
    return (
      <Alert color="red" data-testid="pipeline-load-error">
        {t('Error while loading data')}
      </Alert>
    );
  return (
    <ReactFlowProvider>
      <FlowEditor key={pipeline.data.id} pipeline={pipeline.data} projectId={ids.projectId} />
    </ReactFlowProvider>
  );
}
