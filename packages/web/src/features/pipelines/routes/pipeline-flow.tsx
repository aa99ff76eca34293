import { Alert, Center, Loader } from '@mantine/core';
import { ReactFlowProvider } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { matchPath } from 'react-router';
import { paths } from '@stageline/shared';
import { queryClient } from '../../../shared/api/query-client';
import { usePipeline } from '../api';
import { FlowEditor } from '../components/flow-editor';
import { pipelineRecordQueryOptions } from '../crud-api';
import { usePipelineRouteIds } from '../hooks/use-route-ids';
import { startFirstLayout } from '../lib/first-layout';
import { preloadLayout } from '../lib/layout';

/**
 * Opened by its address (a reload, a link): the router evaluates this module before the app shell
 * renders and asks for users/me/, so the pipeline is asked for now, beside the session, not after
 * it, and a pipeline without positions goes to elk the moment it arrives (not after the editor's
 * first render). Reached by a click inside the app, the URL is still the previous page's and the
 * screen fetches as usual. Either way elk's worker starts and warms up meanwhile: a cold elk takes
 * about twice as long. The fetch is silent (the same cache entry as `usePipeline`): a failure shows
 * on the screen's own error state when it asks again.
 */
function prefetchEditor(): void {
  preloadLayout();
  const match = matchPath(paths.app.pipelineFlow(':projectId', ':pipelineId'), window.location.pathname);
  const pipelineId = Number(match?.params.pipelineId);
  if (!Number.isInteger(pipelineId) || pipelineId <= 0) return;
  queryClient.fetchQuery(pipelineRecordQueryOptions(pipelineId)).then(startFirstLayout, () => undefined);
}
prefetchEditor();

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
