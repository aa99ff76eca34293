import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { paths } from '@stageline/shared';
import { useCurrentWorkspaceId } from '../hooks/use-current-workspace';

/** Screens that live in a current-workspace context send a user with none to the workspace list. */
export function RequireWorkspace({ children }: { children: (workspaceId: number) => ReactNode }) {
  const workspaceId = useCurrentWorkspaceId();
  if (workspaceId === null) return <Navigate to={paths.app.workspaces()} replace />;
  return <>{children(workspaceId)}</>;
}
