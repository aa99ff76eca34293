import { useEffect, useSyncExternalStore } from 'react';
import { useSession } from '../../auth';
import {
  getCurrentWorkspaceId,
  setCurrentWorkspaceId,
  subscribeCurrentWorkspace,
  wasForgotten,
} from '../current-workspace';

/**
 * The current workspace id, live. With none stored, the signed-in user's `recent_workspace` is
 * adopted (docs/rules.md §Web: sign-in on a new device continues where the user left off).
 */
export function useCurrentWorkspaceId(): number | null {
  const stored = useSyncExternalStore(subscribeCurrentWorkspace, getCurrentWorkspaceId, () => null);
  const { user } = useSession();
  const recent = user?.recent_workspace ?? null;
  const adopted = stored === null && recent !== null && !wasForgotten(recent) ? recent : null;
  useEffect(() => {
    if (adopted !== null) setCurrentWorkspaceId(adopted);
  }, [adopted]);
  return stored ?? adopted;
}
