import { useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { paths, type TMe } from '@stageline/shared';
import { api } from '../../../shared/api';
import { queryClient } from '../../../shared/api/query-client';
import { meQueryKey, useSession } from '../../auth';
import { setCurrentWorkspaceId, wasForgotten } from '../current-workspace';
import { useCurrentWorkspaceId } from './use-current-workspace';

/**
 * Makes `workspaceId` the one the user works in: stores `current_workspace` and saves the user's
 * `recent_workspace` (PATCH users/{id}/), which the next sign-in starts from (docs/rules.md §Web).
 * Remembering is a convenience, so a failed PATCH does not undo the switch and is not reported.
 * The one way every screen switches: the switcher, an accepted invite, an opened workspace or
 * project, the quickstart (docs/decisions.md, entry 157).
 */
export async function rememberWorkspace(
  user: Pick<TMe, 'id' | 'recent_workspace'> | null,
  workspaceId: number,
): Promise<void> {
  setCurrentWorkspaceId(workspaceId);
  if (user === null || user.recent_workspace === workspaceId) return;
  try {
    await api.patch<unknown>(`users/${user.id}/`, { recent_workspace: workspaceId }, { silent: true });
    queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, recent_workspace: workspaceId } : old));
  } catch {
    // Remembering is a convenience; the switch itself is local.
  }
}

/**
 * Switches workspace (docs/rules.md §Web): remembers it (`rememberWorkspace`), then navigates to `to`
 * (default /app).
 */
export function useSwitchWorkspace() {
  const navigate = useNavigate();
  const { user } = useSession();
  const userId = user?.id ?? null;
  const recent = user?.recent_workspace ?? null;
  return useCallback(
    async (workspaceId: number, to: string = paths.app.dashboard()) => {
      await rememberWorkspace(userId === null ? null : { id: userId, recent_workspace: recent }, workspaceId);
      await navigate(to);
    },
    [navigate, userId, recent],
  );
}

/**
 * A screen of one workspace (its page, its settings, a project or pipeline in it) switches to that
 * workspace in place when it is not the current one, so the header names the workspace the page
 * shows and the next sign-in comes back to it.
 */
export function useOpenWorkspace(workspaceId: number | undefined): void {
  const currentWorkspaceId = useCurrentWorkspaceId();
  const { user } = useSession();
  const userId = user?.id ?? null;
  const recent = user?.recent_workspace ?? null;
  useEffect(() => {
    // A workspace this tab stopped working in (deleted or left from this very page) is not taken back.
    if (workspaceId === undefined || workspaceId === currentWorkspaceId || wasForgotten(workspaceId)) return;
    void rememberWorkspace(userId === null ? null : { id: userId, recent_workspace: recent }, workspaceId);
  }, [workspaceId, currentWorkspaceId, userId, recent]);
}
