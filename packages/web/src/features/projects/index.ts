/** What the rest of the app may use of the projects feature (docs/architecture.md §Layers: features talk through exports). */
export { ProjectCrumb } from './components/project-crumb';
export { ProjectList } from './components/project-list';
export { useWorkspaceAbilities } from './hooks/use-workspace-abilities';
export { useOpenProject } from './hooks/use-open-project';
export {
  isWorkloadKey,
  projectKeys,
  projectQueryOptions,
  projectsQueryOptions,
  useCreateProject,
  useProject,
  useProjects,
  useProjectWorkload,
} from './api';
export { initialReviewDefaults, projectBody, ProjectForm } from './components/project-form';
export { useProjectRecord } from './hooks/use-project-record';
