import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZProjectForecast, ZWorkload, type TProjectForecast, type TWorkload } from '@stageline/shared/schedule';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';

/**
 * Schedule calls (docs/schedule.md): one owner for `['schedule', …]`. A live task event refetches
 * them (the forecast depends on every task of the project).
 */
export const scheduleKeys = {
  all: ['schedule'] as const,
  forecast: (projectId: number) => ['schedule', 'forecast', projectId] as const,
  workload: (workspaceId: number, from: string | undefined, weeks: number) =>
    ['schedule', 'workload', workspaceId, from ?? null, weeks] as const,
};

/** GET workspaces/{id}/workload/: people × weeks. */
export const useWorkload = (workspaceId: number, from: string | undefined, weeks: number) =>
  useQuery({
    queryKey: scheduleKeys.workload(workspaceId, from, weeks),
    queryFn: async ({ signal }): Promise<TWorkload> =>
      ZWorkload.parse(
        await api.get(`workspaces/${workspaceId}/workload/`, { query: { from, weeks }, signal, silent: true }),
      ),
    placeholderData: (previous) => previous,
  });

export const forecastQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: scheduleKeys.forecast(projectId),
    queryFn: async ({ signal }): Promise<TProjectForecast> =>
      ZProjectForecast.parse(await api.get(`projects/${projectId}/forecast/`, { signal, silent: true })),
  });

export const useForecast = (projectId: number) =>
  useQuery({ ...forecastQueryOptions(projectId), placeholderData: (previous) => previous });

/**
 * Moves or resizes a task on the timeline: its new dates show at once (the cached forecast is
 * changed in place), the server's answer and the new forecast follow; a refusal puts them back.
 */
export async function moveTask(
  projectId: number,
  taskId: number,
  patch: { start_date: string; due_date: string },
): Promise<void> {
  const key = scheduleKeys.forecast(projectId);
  const before = queryClient.getQueryData<TProjectForecast>(key);
  if (before)
    queryClient.setQueryData<TProjectForecast>(key, {
      ...before,
      units: before.units.map((unit) => ({
        ...unit,
        tasks: unit.tasks.map((task) =>
          task.id === taskId ? { ...task, start_date: patch.start_date, due_date: patch.due_date.slice(0, 10) } : task,
        ),
      })),
    });
  try {
    await api.patch(`tasks/${taskId}/`, patch, { silent: true });
  } catch (error) {
    if (before) queryClient.setQueryData(key, before);
    throw error;
  } finally {
    await queryClient.invalidateQueries({ queryKey: key });
  }
}
