import PipelineScreen from '../../features/pipelines/routes/pipeline';
import { PipelineFocus } from '../../features/tasks';

/** `.../pipelines/{id}`: the pipelines feature's screen with the tasks feature's unit and task view in it. */
export default function PipelineWithUnits() {
  return <PipelineScreen Focus={PipelineFocus} />;
}
