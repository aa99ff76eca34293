import { useQuery } from '@tanstack/react-query';
import type { TRole } from '@stageline/shared';
import { workspaceQueryOptions } from '../../workspaces';

/** The caller's role in a workspace (the one a project belongs to), or null while unknown. */
export function useWorkspaceRole(workspaceId: number | null | undefined): TRole | null {
  const workspace = useQuery({
    ...workspaceQueryOptions(workspaceId ?? 0),
    enabled: workspaceId !== null && workspaceId !== undefined,
  });
  return workspace.data?.role ?? null;
}
