/** What the rest of the app may use of the workspaces feature (docs/architecture.md §Layers: features talk through exports). */
export { getCurrentWorkspaceId, setCurrentWorkspaceId } from './current-workspace';
export { RequireWorkspace } from './components/require-workspace';
export { WorkspaceSwitcher } from './components/workspace-switcher';
export { useCurrentWorkspaceId } from './hooks/use-current-workspace';
export { rememberWorkspace, useOpenWorkspace } from './hooks/use-switch-workspace';
export { InviteUsersSection } from './components/settings/invite-users-section';
export { useMembers, type TMember } from './members';
export { roleLabel } from './lib/roles';
export { myInvitesQueryOptions, useCreateWorkspace, useMyInvites, useWorkspaces, workspaceQueryOptions } from './api';
export { PendingInvites } from './components/pending-invites';
