import { useEffect } from 'react';
import { StorageKeys, type TMe, type TProject } from '@stageline/shared';
import { api } from '../../../shared/api';
import { queryClient } from '../../../shared/api/query-client';
import { storage } from '../../../shared/lib/storage';
import { meQueryKey, useSession } from '../../auth';
import { setCurrentWorkspaceId, useCurrentWorkspaceId } from '../../workspaces';

/**
 * Opening a project (docs/rules.md §Web) stores it as `lastProject` and, when it belongs to another
 * workspace than the current one, switches to that workspace in place: like `useSwitchWorkspace`
 * it remembers `recent_workspace` and stores `current_workspace`, but it stays on this page.
 */
export function useOpenProject(project: TProject | undefined): void {
  const currentWorkspaceId = useCurrentWorkspaceId();
  const { user } = useSession();
  const userId = user?.id ?? null;
  const recent = user?.recent_workspace ?? null;
  const projectId = project?.id;
  const workspaceId = project?.workspace;

  useEffect(() => {
    if (projectId === undefined) return;
    storage.set(StorageKeys.lastProject, String(projectId));
  }, [projectId]);

  useEffect(() => {
    if (workspaceId === undefined || workspaceId === currentWorkspaceId) return;
    setCurrentWorkspaceId(workspaceId);
    if (userId === null || recent === workspaceId) return;
    // Remembering is a convenience for the next sign-in; its failure does not undo the switch.
    api
      .patch<unknown>(`users/${userId}/`, { recent_workspace: workspaceId }, { silent: true })
      .then(() =>
        queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, recent_workspace: workspaceId } : old)),
      )
      .catch(() => undefined);
  }, [workspaceId, currentWorkspaceId, userId, recent]);
}
