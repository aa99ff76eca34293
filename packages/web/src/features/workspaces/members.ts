import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ZWorkspaceUser } from '@stageline/shared';
import { api } from '../../shared/api';
import { workspaceKeys } from './api';

/** A member who accepted: someone a task can be given to or a comment can mention. */
export type TMember = { id: number; name: string; username: string | null; role: string };

/**
 * GET workspaces/{id}/users/, reduced to the members who accepted: the people a task can be given
 * to. Under the workspace's users key, so a team change refreshes it too.
 */
export const membersQueryOptions = (workspaceId: number) =>
  queryOptions({
    queryKey: [...workspaceKeys.users(workspaceId), 'accepted'] as const,
    queryFn: async ({ signal }): Promise<TMember[]> =>
      z
        .array(ZWorkspaceUser)
        .parse(await api.get(`workspaces/${workspaceId}/users/`, { signal, silent: true }))
        .flatMap((u) =>
          u.status === 'accepted' && u.user_id !== null
            ? [{ id: u.user_id, name: u.name, username: u.username, role: u.role }]
            : [],
        ),
  });
export const useMembers = (workspaceId: number | null | undefined) =>
  useQuery({ ...membersQueryOptions(workspaceId ?? 0), enabled: workspaceId != null });
