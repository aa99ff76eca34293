import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZTeam, ZTeamList, type TTeam, type TTeamCreate, type TTeamPatch } from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';

/** Teams of a workspace (docs/review-rules.md). Calls are `silent`: the section shows its own errors. */
const silent = { silent: true } as const;

export const teamKeys = {
  all: ['teams'] as const,
  ofWorkspace: (workspaceId: number) => ['teams', 'workspace', workspaceId] as const,
};

export const teamsQueryOptions = (workspaceId: number) =>
  queryOptions({
    queryKey: teamKeys.ofWorkspace(workspaceId),
    queryFn: async ({ signal }) =>
      ZTeamList.parse(await api.get<unknown>(`workspaces/${workspaceId}/teams/`, { signal, silent: true })),
  });

export const useTeams = (workspaceId: number | null | undefined) =>
  useQuery({ ...teamsQueryOptions(workspaceId ?? 0), enabled: workspaceId != null });

const refresh = () => queryClient.invalidateQueries({ queryKey: teamKeys.all });

export async function createTeam(workspaceId: number, input: TTeamCreate): Promise<TTeam> {
  const team = ZTeam.parse(await api.post<unknown>(`workspaces/${workspaceId}/teams/`, input, silent));
  await refresh();
  return team;
}

export async function updateTeam(teamId: number, patch: TTeamPatch): Promise<void> {
  await api.patch<unknown>(`teams/${teamId}/`, patch, silent);
  await refresh();
}

export async function deleteTeam(teamId: number): Promise<void> {
  await api.delete(`teams/${teamId}/`, silent);
  await refresh();
}

export async function addTeamMembers(teamId: number, users: number[]): Promise<void> {
  await api.post<unknown>(`teams/${teamId}/members/`, { users }, silent);
  await refresh();
}

export async function removeTeamMember(teamId: number, userId: number): Promise<void> {
  await api.delete(`teams/${teamId}/members/${userId}/`, silent);
  await refresh();
}
