import { useQuery } from '@tanstack/react-query';
import type { TWorkspaceAbilities } from '@stageline/shared';
import { workspaceQueryOptions } from '../../workspaces';

/**
 * What the caller may do in a workspace (the one a project belongs to), as the server sent it with
 * the workspace; null while unknown (docs/architecture.md, "Abilities").
 */
export function useWorkspaceAbilities(workspaceId: number | null | undefined): TWorkspaceAbilities | null {
  const workspace = useQuery({
    ...workspaceQueryOptions(workspaceId ?? 0),
    enabled: workspaceId !== null && workspaceId !== undefined,
  });
  return workspace.data?.abilities ?? null;
}
