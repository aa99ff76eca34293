import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZTaskList } from '@stageline/shared';
import {
  ZTimeLog,
  ZTimeLogList,
  ZTimerState,
  ZTimerStopped,
  type TTimeLog,
  type TTimeLogCreate,
  type TTimeLogPatch,
  type TTimerState,
} from '@stageline/shared/time';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';

/**
 * Time logs and the timer (docs/time.md): one owner for `['time', …]`. A change refetches every
 * time query and the task it touched (its history and spent hours); the live `time` event does the
 * same for others' changes.
 */
const silent = { silent: true } as const;

export const timeKeys = {
  all: ['time'] as const,
  logs: (query: TLogQuery) => ['time', 'logs', query] as const,
  assigned: (workspace: number) => ['time', 'assigned', workspace] as const,
  timer: () => ['time', 'timer'] as const,
};

export type TLogQuery = { workspace: number; from: string; to: string; person?: 'me'; project?: number };

/** GET time/: the logs of a period (the caller's own, or everyone's for an Admin without `person`). */
export const logsQueryOptions = (query: TLogQuery) =>
  queryOptions({
    queryKey: timeKeys.logs(query),
    queryFn: async ({ signal }) => ZTimeLogList.parse(await api.get('time/', { query, signal, silent: true })).results,
  });
export const useLogs = (query: TLogQuery, enabled = true) => useQuery({ ...logsQueryOptions(query), enabled });

/** The caller's tasks in a workspace (the timesheet's rows besides the logged ones), first 100. */
export const useAssignedTasks = (workspace: number) =>
  useQuery({
    queryKey: timeKeys.assigned(workspace),
    queryFn: async ({ signal }) =>
      ZTaskList.parse(
        await api.get('tasks/', { query: { assignee: 'me', workspace, limit: 100 }, signal, silent: true }),
      ).results,
    staleTime: 30_000,
  });

/** GET timer/: the caller's running timer. */
export const useTimer = () =>
  useQuery({
    queryKey: timeKeys.timer(),
    queryFn: async ({ signal }): Promise<TTimerState> =>
      ZTimerState.parse(await api.get('timer/', { signal, silent: true })),
  });

async function refresh(taskId?: number) {
  await queryClient.invalidateQueries({ queryKey: timeKeys.all });
  if (taskId !== undefined) await queryClient.invalidateQueries({ queryKey: ['tasks', taskId] });
}

/** POST tasks/{id}/time/: adds to the day. */
export async function logTime(taskId: number, body: TTimeLogCreate): Promise<TTimeLog> {
  const log = ZTimeLog.parse(await api.post(`tasks/${taskId}/time/`, body, silent));
  await refresh(taskId);
  return log;
}

/** PATCH time/{id}/: sets the day's hours. */
export async function updateLog(log: TTimeLog, patch: TTimeLogPatch): Promise<TTimeLog> {
  const changed = ZTimeLog.parse(await api.patch(`time/${log.id}/`, patch, silent));
  await refresh(log.task.id);
  return changed;
}

export async function deleteLog(log: TTimeLog): Promise<void> {
  await api.delete(`time/${log.id}/`, silent);
  await refresh(log.task.id);
}

export async function startTimer(taskId: number): Promise<void> {
  ZTimerState.parse(await api.post(`tasks/${taskId}/timer/start/`, undefined, silent));
  await refresh();
}

/** POST timer/stop/: the time goes into `date`'s log (the browser's today). */
export async function stopTimer(date: string): Promise<TTimeLog> {
  const { log } = ZTimerStopped.parse(await api.post('timer/stop/', { date }, silent));
  await refresh(log.task.id);
  return log;
}
