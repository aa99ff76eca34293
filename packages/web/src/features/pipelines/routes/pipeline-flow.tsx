import { useTranslation } from 'react-i18next';
import type { TPipeline } from '@stageline/shared';
import { useDocumentTitle } from '../../../shared/ui/document-title';
import { FlowEditor } from '../components/flow-editor';
import { RoutePipeline } from '../components/route-pipeline';

/** `.../pipelines/{pipelineId}/edit_flow`: the diagram editor (React Flow and elk load with this chunk). */
export default function PipelineFlowScreen() {
  return (
    <RoutePipeline>
      {(pipeline, projectId) => (
        <>
          <EditorTitle pipeline={pipeline} />
          <FlowEditor key={pipeline.id} pipeline={pipeline} projectId={projectId} />
        </>
      )}
    </RoutePipeline>
  );
}

/** The editor has no page card: its tab is titled here. */
function EditorTitle({ pipeline }: { pipeline: TPipeline }) {
  const { t } = useTranslation();
  useDocumentTitle([t('Edit diagram'), pipeline.name]);
  return null;
}
