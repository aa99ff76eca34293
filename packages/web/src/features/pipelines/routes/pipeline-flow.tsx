import { FlowEditor } from '../components/flow-editor';
import { RoutePipeline } from '../components/route-pipeline';

/** `.../pipelines/{pipelineId}/edit_flow`: the diagram editor (React Flow and elk load with this chunk). */
export default function PipelineFlowScreen() {
  return (
    <RoutePipeline>
      {(pipeline, projectId) => <FlowEditor key={pipeline.id} pipeline={pipeline} projectId={projectId} />}
    </RoutePipeline>
  );
}
