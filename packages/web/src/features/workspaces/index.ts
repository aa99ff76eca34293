export { getCurrentWorkspaceId } from './current-workspace';
export { RequireWorkspace } from './components/require-workspace';
