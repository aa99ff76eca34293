import { ProjectList } from '../../features/projects';
import WorkspaceScreen from '../../features/workspaces/routes/workspace';

/** `/app/workspaces/{id}`: the workspaces feature's screen with the projects feature's list in it. */
export default function WorkspaceWithProjects() {
  return <WorkspaceScreen projects={(workspaceId) => <ProjectList workspaceId={workspaceId} />} />;
}
