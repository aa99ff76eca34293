import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ZProject, ZProjectWorkload, type TProject, type ZProjectCreate, type ZProjectPatch } from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';

/**
 * Project calls (issue 5). Reads and mutations are `silent`: the record loader and the forms say
 * what went wrong in the words of docs/rules.md §Web. `projectKeys.detail(id)` is `['projects', id]`, the key
 * the pipelines feature reads the project under too.
 */
export type TProjectCreate = z.infer<typeof ZProjectCreate>;
export type TProjectPatch = z.infer<typeof ZProjectPatch>;

const silent = { silent: true } as const;

export const projectKeys = {
  all: ['projects'] as const,
  lists: () => ['projects', 'list'] as const,
  list: (workspaceId: number) => ['projects', 'list', workspaceId] as const,
  detail: (id: number) => ['projects', id] as const,
};

/** GET projects/{id}/: 404 for a project outside the caller's workspaces. */
export const getProject = async (id: number, signal?: AbortSignal) =>
  ZProject.parse(await api.get(`projects/${id}/`, { signal, silent: true }));
export const projectQueryOptions = (id: number) =>
  queryOptions({ queryKey: projectKeys.detail(id), queryFn: ({ signal }) => getProject(id, signal) });
export const useProject = (id: number, enabled = true) => useQuery({ ...projectQueryOptions(id), enabled });

/** Whether a query key is a project's workload: a task's change may move any of them. */
export const isWorkloadKey = (key: readonly unknown[]) => key[0] === projectKeys.all[0] && key[2] === 'workload';

/** GET projects/{id}/workload/: who carries the project's open tasks (the project overview). */
export const workloadQueryOptions = (id: number) =>
  queryOptions({
    queryKey: [...projectKeys.detail(id), 'workload'] as const,
    queryFn: async ({ signal }) =>
      ZProjectWorkload.parse(await api.get(`projects/${id}/workload/`, { signal, silent: true })),
  });
export const useProjectWorkload = (id: number) => useQuery(workloadQueryOptions(id));

/** GET projects/?workspace={id}: the workspace's projects. */
export const getProjects = async (workspaceId: number, signal?: AbortSignal) =>
  z.array(ZProject).parse(await api.get('projects/', { query: { workspace: workspaceId }, signal, silent: true }));
export const projectsQueryOptions = (workspaceId: number) =>
  queryOptions({ queryKey: projectKeys.list(workspaceId), queryFn: ({ signal }) => getProjects(workspaceId, signal) });
export const useProjects = (workspaceId: number) => useQuery(projectsQueryOptions(workspaceId));

/** Puts a project the server answered into its own entry and refreshes the lists. */
function remember(project: TProject) {
  queryClient.setQueryData(projectKeys.detail(project.id), project);
  void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
}

export const createProject = async (body: TProjectCreate) => ZProject.parse(await api.post('projects/', body, silent));
export const useCreateProject = () => useMutation({ mutationFn: createProject, onSuccess: remember });

export const updateProject = async (id: number, body: TProjectPatch) =>
  ZProject.parse(await api.patch(`projects/${id}/`, body, silent));
export const useUpdateProject = () =>
  useMutation({
    mutationFn: ({ id, changes }: { id: number; changes: TProjectPatch }) => updateProject(id, changes),
    onSuccess: remember,
  });

export const deleteProject = (id: number) => api.delete<void>(`projects/${id}/`, silent);
export const useDeleteProject = () =>
  useMutation({
    mutationFn: deleteProject,
    onSuccess: (_void, id) => {
      // Not removed while its screen is still mounted: marked stale, the next visit asks again (404).
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(id), refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
    },
  });
