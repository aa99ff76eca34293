import { ProjectProgress } from '../../features/pipelines/overview';
import ProjectScreen from '../../features/projects/routes/project';

/** `/app/projects/{id}`: the projects feature's screen with the pipelines' progress in it. */
export default function ProjectWithProgress() {
  return (
    <ProjectScreen
      overview={(project, can) => <ProjectProgress projectId={project.id} canCreate={can.createPipeline} />}
    />
  );
}
