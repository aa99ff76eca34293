import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import type { TAssignableRole, TWorkspace, TWorkspaceCreate, TWorkspacePatch } from '@stageline/shared';
import {
  paths,
  ZBulkResult,
  ZInviteLink,
  ZInvitePreview,
  ZInviteResult,
  ZPendingInvite,
  ZWorkspace,
  ZWorkspaceUser,
} from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';

/**
 * Workspace, team and invite calls (issue 4). Mutations are `silent`: each screen says what went
 * wrong in its own words (docs/rules.md §Web). Keys are scoped by workspace id, so invalidating
 * `workspaceKeys.detail(id)` refreshes the workspace with its team and link.
 */
export type TInviteLink = z.infer<typeof ZInviteLink>;
export type TInvitePreview = z.infer<typeof ZInvitePreview>;
export type TInviteResult = z.infer<typeof ZInviteResult>;

const silent = { silent: true } as const;

export const workspaceKeys = {
  all: ['workspaces'] as const,
  list: () => ['workspaces', 'list'] as const,
  detail: (id: number) => ['workspaces', id] as const,
  users: (id: number) => ['workspaces', id, 'users'] as const,
  link: (id: number) => ['workspaces', id, 'link'] as const,
};

export const inviteKeys = {
  all: ['invites'] as const,
  mine: () => ['invites', 'mine'] as const,
  preview: (token: string) => ['invites', 'preview', token] as const,
};

/* ---------- workspaces ---------- */

/** GET workspaces/: the caller's workspaces, each with the caller's role. */
export const getWorkspaces = async (signal?: AbortSignal) =>
  z.array(ZWorkspace).parse(await api.get('workspaces/', { signal }));
export const workspacesQueryOptions = () =>
  queryOptions({ queryKey: workspaceKeys.list(), queryFn: ({ signal }) => getWorkspaces(signal) });
export const useWorkspaces = () => useQuery(workspacesQueryOptions());

/** GET workspaces/{id}/: 404 for a workspace the caller is not in. */
export const getWorkspace = async (id: number, signal?: AbortSignal) =>
  ZWorkspace.parse(await api.get(`workspaces/${id}/`, { signal, silent: true }));
export const workspaceQueryOptions = (id: number) =>
  queryOptions({ queryKey: workspaceKeys.detail(id), queryFn: ({ signal }) => getWorkspace(id, signal) });
export const useWorkspace = (id: number) => useQuery(workspaceQueryOptions(id));

/** Puts a workspace the server answered into the list and its own entry. */
function remember(workspace: TWorkspace) {
  queryClient.setQueryData(workspaceKeys.detail(workspace.id), workspace);
  queryClient.setQueryData<TWorkspace[]>(workspaceKeys.list(), (old) =>
    old ? [...old.filter((w) => w.id !== workspace.id), workspace] : old,
  );
}

/** Drops a workspace the caller no longer belongs to from the cache. */
function forget(id: number) {
  // Not removed while its screen is still mounted: marked stale, the next visit asks again (404).
  void queryClient.invalidateQueries({ queryKey: workspaceKeys.detail(id), refetchType: 'none' });
  queryClient.setQueryData<TWorkspace[]>(workspaceKeys.list(), (old) => old?.filter((w) => w.id !== id));
  void queryClient.invalidateQueries({ queryKey: workspaceKeys.list() });
}

export const createWorkspace = async (body: TWorkspaceCreate) =>
  ZWorkspace.parse(await api.post('workspaces/', body, silent));
export const useCreateWorkspace = () => useMutation({ mutationFn: createWorkspace, onSuccess: remember });

export const updateWorkspace = async (id: number, body: TWorkspacePatch) =>
  ZWorkspace.parse(await api.patch(`workspaces/${id}/`, body, silent));
export const useUpdateWorkspace = (id: number) =>
  useMutation({
    mutationFn: (body: TWorkspacePatch) => updateWorkspace(id, body),
    onSuccess: (workspace) => {
      remember(workspace);
      void queryClient.invalidateQueries({ queryKey: workspaceKeys.list() });
    },
  });

export const deleteWorkspace = (id: number) => api.delete<void>(`workspaces/${id}/`, silent);
export const useDeleteWorkspace = (id: number) =>
  useMutation({ mutationFn: () => deleteWorkspace(id), onSuccess: () => forget(id) });

export const leaveWorkspace = (id: number) => api.post<void>(`workspaces/${id}/leave/`, undefined, silent);
export const useLeaveWorkspace = (id: number) =>
  useMutation({ mutationFn: () => leaveWorkspace(id), onSuccess: () => forget(id) });

export const delegateOwnership = (id: number, user: number) =>
  api.post<unknown>(`workspaces/${id}/delegate/`, { user }, silent);
export const useDelegateOwnership = (id: number) =>
  useMutation({
    mutationFn: (user: number) => delegateOwnership(id, user),
    onSettled: () => invalidateWorkspace(id),
  });

/** Refetches a workspace, its team and link, and the list (roles and counts shown there). */
function invalidateWorkspace(id: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: workspaceKeys.detail(id) }),
    queryClient.invalidateQueries({ queryKey: workspaceKeys.list() }),
  ]);
}

/* ---------- team ---------- */

/** GET workspaces/{id}/users/: members and pending direct invites. */
export const getWorkspaceUsers = async (id: number, signal?: AbortSignal) =>
  z.array(ZWorkspaceUser).parse(await api.get(`workspaces/${id}/users/`, { signal, silent: true }));
export const workspaceUsersQueryOptions = (id: number) =>
  queryOptions({ queryKey: workspaceKeys.users(id), queryFn: ({ signal }) => getWorkspaceUsers(id, signal) });
export const useWorkspaceUsers = (id: number) => useQuery(workspaceUsersQueryOptions(id));

export const setRoles = async (id: number, users: number[], role: TAssignableRole) =>
  ZBulkResult.parse(await api.post(`workspaces/${id}/set_roles/`, { users, role }, silent));
export const useSetRoles = (id: number) =>
  useMutation({
    mutationFn: ({ users, role }: { users: number[]; role: TAssignableRole }) => setRoles(id, users, role),
    onSettled: () => invalidateWorkspace(id),
  });

export const removeUsers = async (id: number, users: number[]) =>
  ZBulkResult.parse(await api.post(`workspaces/${id}/remove_users/`, { users }, silent));
export const useRemoveUsers = (id: number) =>
  useMutation({ mutationFn: (users: number[]) => removeUsers(id, users), onSettled: () => invalidateWorkspace(id) });

/* ---------- invites ---------- */

export const inviteUsers = async (id: number, users: string[], role: TAssignableRole) =>
  ZInviteResult.parse(await api.post<unknown>(`workspaces/${id}/invite/`, { users, role }, silent));
export const useInviteUsers = (id: number) =>
  useMutation({
    mutationFn: ({ users, role }: { users: string[]; role: TAssignableRole }) => inviteUsers(id, users, role),
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.users(id) }),
  });

export const resendInvite = (id: number, inviteId: number) =>
  api.post<unknown>(`workspaces/${id}/invites/${inviteId}/resend/`, undefined, silent);
export const useResendInvite = (id: number) =>
  useMutation({ mutationFn: (inviteId: number) => resendInvite(id, inviteId) });

export const cancelInvite = (id: number, inviteId: number) =>
  api.delete<void>(`workspaces/${id}/invites/${inviteId}/`, silent);
export const useCancelInvite = (id: number) =>
  useMutation({
    mutationFn: (inviteId: number) => cancelInvite(id, inviteId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: workspaceKeys.users(id) }),
  });

/** GET invites/: the caller's pending direct invites. */
export const getMyInvites = async (signal?: AbortSignal) =>
  ZPendingInvite.array().parse(await api.get<unknown>('invites/', { signal }));
export const myInvitesQueryOptions = () =>
  queryOptions({ queryKey: inviteKeys.mine(), queryFn: ({ signal }) => getMyInvites(signal) });
export const useMyInvites = () => useQuery(myInvitesQueryOptions());

/** GET invites/{token}/: what a link or personal token offers; 404 for an invalid token. */
export const getInvitePreview = async (token: string, signal?: AbortSignal) =>
  ZInvitePreview.parse(await api.get<unknown>(`invites/${encodeURIComponent(token)}/`, { signal, silent: true }));
export const invitePreviewQueryOptions = (token: string) =>
  queryOptions({
    queryKey: inviteKeys.preview(token),
    queryFn: ({ signal }) => getInvitePreview(token, signal),
    retry: false,
  });
export const useInvitePreview = (token: string) => useQuery(invitePreviewQueryOptions(token));

/** POST invites/{key}/accept/ (key: an invite id or a token) → the workspace joined. */
export const acceptInvite = async (key: string | number) =>
  ZWorkspace.parse(await api.post<unknown>(`invites/${encodeURIComponent(String(key))}/accept/`, undefined, silent));
export const useAcceptInvite = () =>
  useMutation({
    mutationFn: acceptInvite,
    onSuccess: (workspace) => {
      remember(workspace);
      void queryClient.invalidateQueries({ queryKey: inviteKeys.all });
      void queryClient.invalidateQueries({ queryKey: workspaceKeys.list() });
    },
  });

export const declineInvite = (key: string | number) =>
  api.post<unknown>(`invites/${encodeURIComponent(String(key))}/decline/`, undefined, silent);
export const useDeclineInvite = () =>
  useMutation({
    mutationFn: declineInvite,
    onSettled: () => queryClient.invalidateQueries({ queryKey: inviteKeys.all }),
  });

/* ---------- invite link ---------- */

/** GET workspaces/{id}/link/: the active link, or null when there is none (decision 195). */
export async function getInviteLink(id: number, signal?: AbortSignal): Promise<TInviteLink | null> {
  return ZInviteLink.nullable().parse(await api.get<unknown>(`workspaces/${id}/link/`, { signal, silent: true }));
}
export const inviteLinkQueryOptions = (id: number) =>
  queryOptions({ queryKey: workspaceKeys.link(id), queryFn: ({ signal }) => getInviteLink(id, signal) });
export const useInviteLink = (id: number, enabled = true) => useQuery({ ...inviteLinkQueryOptions(id), enabled });

export const createInviteLink = async (id: number, role: TAssignableRole) =>
  ZInviteLink.parse(await api.post<unknown>(`workspaces/${id}/link/`, { role }, silent));
export const useCreateInviteLink = (id: number) =>
  useMutation({
    mutationFn: (role: TAssignableRole) => createInviteLink(id, role),
    onSuccess: (link) => queryClient.setQueryData(workspaceKeys.link(id), link),
  });

export const disableInviteLink = (id: number) => api.delete<void>(`workspaces/${id}/link/`, silent);
export const useDisableInviteLink = (id: number) =>
  useMutation({
    mutationFn: () => disableInviteLink(id),
    onSuccess: () => queryClient.setQueryData(workspaceKeys.link(id), null),
  });

/** The address to share for a link token (docs/rules.md §Web: `i/{token}`). */
export const inviteLinkUrl = (token: string) => `${window.location.origin}${paths.inviteLink(token)}`;
