import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { paths, type TMe } from '@stageline/shared';
import { api } from '../../../shared/api';
import { queryClient } from '../../../shared/api/query-client';
import { meQueryKey, useSession } from '../../auth';
import { setCurrentWorkspaceId } from '../current-workspace';

/**
 * Switches workspace (docs/rules.md §Web): saves the user's `recent_workspace` (PATCH users/{id}/),
 * stores `current_workspace`, then navigates to `to` (default /app). The PATCH only remembers the
 * choice for the next sign-in, so its failure does not stop the switch.
 */
export function useSwitchWorkspace() {
  const navigate = useNavigate();
  const { user } = useSession();
  const userId = user?.id ?? null;
  return useCallback(
    async (workspaceId: number, to: string = paths.app.dashboard()) => {
      if (userId !== null && user?.recent_workspace !== workspaceId) {
        try {
          await api.patch<unknown>(`users/${userId}/`, { recent_workspace: workspaceId }, { silent: true });
          queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, recent_workspace: workspaceId } : old));
        } catch {
          // Remembering is a convenience; the switch itself is local.
        }
      }
      setCurrentWorkspaceId(workspaceId);
      await navigate(to);
    },
    [navigate, userId, user?.recent_workspace],
  );
}
