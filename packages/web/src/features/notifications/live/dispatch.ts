import type { QueryClient } from '@tanstack/react-query';
import type { EventSourceMessage } from 'eventsource-parser';
import { ZLiveEvent, type TLiveEvent, type TMe } from '@stageline/shared';
import { attachmentKeys } from '../../attachments';
import { meQueryKey } from '../../auth';
import { applyCommentEvent } from '../../comments';
import { historyKeys } from '../../history';
import { pipelineKeys } from '../../pipelines/crud';
import { isWorkloadKey, projectKeys } from '../../projects';
import { reportKeys } from '../../reports';
import { scheduleKeys } from '../../schedule';
import { taskKeys } from '../../tasks';
import { timeKeys } from '../../time';
import { taskChanged, unitKeys } from '../../units';
import { notificationKeys } from '../api';
import { browserNotificationWanted, showBrowserNotification } from '../lib/browser-notifications';
import { describeNotification, notificationPath } from '../lib/describe';

/** An SSE message as a live event: `event:` names the type, `data:` is its JSON. Null if unknown. */
export function parseLiveMessage(message: EventSourceMessage): TLiveEvent | null {
  let data: unknown;
  try {
    data = JSON.parse(message.data);
  } catch {
    return null;
  }
  const wrapped =
    typeof data === 'object' && data !== null && 'type' in data && 'data' in data
      ? data
      : { type: message.event ?? 'message', data };
  const parsed = ZLiveEvent.safeParse(wrapped);
  return parsed.success ? parsed.data : null;
}

export type TDispatchDeps = {
  queryClient: QueryClient;
  t: (key: string, params?: Record<string, unknown>) => string;
  toast: (toast: { kind: 'info'; title: string; message: string }) => void;
  navigate: (path: string) => void;
};

/** What each live event changes in the query cache and on the screen (docs/live-updates.md). */
export function dispatchLiveEvent(event: TLiveEvent, deps: TDispatchDeps): void {
  const { queryClient } = deps;
  const invalidate = (queryKey: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey });
  switch (event.type) {
    case 'notification': {
      invalidate(notificationKeys.all);
      const sentence = describeNotification(event.data, deps.t);
      deps.toast({ kind: 'info', title: deps.t('New notification'), message: sentence });
      const enabled = queryClient.getQueryData<TMe>(meQueryKey)?.notify_browser === true;
      // The markdown parser (remark) loads only for a pop-up: the shell never carries it.
      if (!browserNotificationWanted(enabled)) return;
      const { text, id } = event.data;
      const path = notificationPath(event.data);
      void import('@stageline/shared/markdown').then(({ markdownToPlainText }) =>
        showBrowserNotification(
          { enabled, title: sentence, body: markdownToPlainText(text), tag: `stageline-notification-${id}`, path },
          deps.navigate,
        ),
      );
      return;
    }
    case 'comment':
      applyCommentEvent(event.data);
      return;
    case 'task':
      invalidate(taskKeys.detail(event.data.id));
      invalidate(taskKeys.lists()); // My work
      taskChanged(queryClient, event.data);
      invalidate(pipelineKeys.detail(event.data.pipeline));
      invalidate(pipelineKeys.lists());
      // Who is loaded (the project overview): the event does not name the project, and few are open.
      void queryClient.invalidateQueries({ predicate: (query) => isWorkloadKey(query.queryKey) });
      // Reports (decision 188): the event does not name the project either.
      invalidate(reportKeys.all);
      invalidate(scheduleKeys.all); // the forecast (docs/schedule.md)
      return;
    case 'units':
      void queryClient.invalidateQueries({
        queryKey: unitKeys.matrices(),
        predicate: (query) => {
          const filter = query.queryKey[2] as { pipeline?: number } | undefined;
          return filter?.pipeline === undefined || filter.pipeline === event.data.pipeline;
        },
      });
      invalidate(unitKeys.whole(event.data.pipeline));
      invalidate(pipelineKeys.detail(event.data.pipeline));
      invalidate(pipelineKeys.lists());
      invalidate(projectKeys.detail(event.data.project));
      invalidate(reportKeys.all); // the burn-up's scope
      invalidate(scheduleKeys.all);
      return;
    case 'files':
      invalidate(attachmentKeys.all);
      invalidate(unitKeys.matrices()); // the paperclip counts
      invalidate(unitKeys.wholes());
      return;
    case 'time':
      // Someone's time changed (docs/time.md): timesheets, and the task's history and spent hours.
      invalidate(timeKeys.all);
      invalidate(taskKeys.detail(event.data.task));
      invalidate(reportKeys.all); // estimate vs spent
      invalidate(historyKeys.all); // its change is in the history of the task and of its unit
      return;
    case 'history':
      // Changes were written (docs/history-and-audit.md): the open timelines of the unit and its tasks.
      invalidate(historyKeys.unit(event.data.unit));
      for (const task of event.data.tasks) invalidate(historyKeys.task(task));
      return;
    case 'reset':
      void queryClient.invalidateQueries();
      return;
  }
}
