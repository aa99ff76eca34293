/** What the rest of the app may use of the workspaces feature (docs/architecture.md §Layers: features talk through exports). */
export { getCurrentWorkspaceId, setCurrentWorkspaceId } from './current-workspace';
export { RequireWorkspace } from './components/require-workspace';
export { WorkspaceSwitcher } from './components/workspace-switcher';
export { RoleBadge } from './components/role-badge';
export { useCurrentWorkspaceId } from './hooks/use-current-workspace';
export { useSwitchWorkspace } from './hooks/use-switch-workspace';
export { InviteUsersSection } from './components/settings/invite-users-section';
export { membersQueryOptions, useMembers, type TMember } from './members';
export {
  useCreateWorkspace,
  useWorkspace,
  useWorkspaces,
  workspaceKeys,
  workspaceQueryOptions,
  workspacesQueryOptions,
} from './api';
