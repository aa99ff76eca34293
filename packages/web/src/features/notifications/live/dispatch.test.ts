import type { InfiniteData } from '@tanstack/react-query';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TComment, TMe, TNotification } from '@stageline/shared';
import { queryClient } from '../../../shared/api/query-client';
import { i18n, initI18n } from '../../../shared/i18n';
import { meQueryKey } from '../../auth';
import { commentKeys } from '../../comments';
import type { TCommentPage } from '../../comments/api';
import { dispatchLiveEvent, parseLiveMessage, type TDispatchDeps } from './dispatch';

const notification: TNotification = {
  id: 7,
  kind: 'mention',
  read: false,
  created_at: '2026-11-22T10:00:00Z',
  task: { id: 50, unit: 'Shot 1', stage: 'Compositing' },
  unit: null,
  workspace: { id: 7, name: 'Blue Studio' },
  comment: 3,
  actor: { id: 2, name: 'Bob', username: 'bob' },
  text: 'please look @ada',
};

const comment = (id: number, text: string): TComment => ({
  id,
  task: 50,
  unit: null,
  author: { id: 2, name: 'Bob', username: 'bob' },
  text,
  mentions: [],
  created_at: `2026-11-22T10:0${id}:00Z`,
  edited_at: null,
});

const stale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated ?? null;

function seed(keys: (readonly unknown[])[]) {
  for (const key of keys) queryClient.setQueryData(key, { seeded: true });
}

describe('live event dispatch', () => {
  let deps: TDispatchDeps & { toast: ReturnType<typeof vi.fn<TDispatchDeps['toast']>> };

  beforeAll(async () => {
    await initI18n().changeLanguage('en');
  });
  beforeEach(() => {
    queryClient.clear();
    deps = {
      queryClient,
      t: (key, params) => i18n.t(key, params),
      toast: vi.fn<TDispatchDeps['toast']>(),
      navigate: () => undefined,
    };
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reads the event name and JSON data of an SSE message, and drops unknown ones', () => {
    expect(parseLiveMessage({ id: '3', event: 'units', data: '{"pipeline":7,"project":5}' })).toEqual({
      type: 'units',
      data: { pipeline: 7, project: 5 },
    });
    expect(parseLiveMessage({ id: '4', event: 'reset', data: '{}' })).toEqual({ type: 'reset', data: {} });
    expect(parseLiveMessage({ id: '5', event: 'units', data: '{"pipeline":"x"}' })).toBeNull();
    expect(parseLiveMessage({ id: '6', event: 'surprise', data: '{}' })).toBeNull();
    expect(parseLiveMessage({ id: '7', event: 'task', data: 'not json' })).toBeNull();
  });

  it('refreshes notifications and the badge and shows a toast for a notification', () => {
    seed([
      ['notifications', 'unread'],
      ['notifications', 'list', 'all', 1],
      ['tasks', 50],
    ]);
    dispatchLiveEvent({ type: 'notification', data: notification }, deps);
    expect(stale(['notifications', 'unread'])).toBe(true);
    expect(stale(['notifications', 'list', 'all', 1])).toBe(true);
    expect(stale(['tasks', 50])).toBe(false);
    expect(deps.toast).toHaveBeenCalledWith({
      kind: 'info',
      title: 'New notification',
      message: 'Bob mentioned you in Shot 1 · Compositing',
    });
  });

  it('shows a browser notification only when enabled, allowed and the tab is hidden', async () => {
    const shown: { title: string; options: NotificationOptions }[] = [];
    class FakeNotification {
      static permission: NotificationPermission = 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, options: NotificationOptions) {
        shown.push({ title, options });
      }
      close() {}
    }
    vi.stubGlobal('Notification', FakeNotification);
    const hidden = vi.spyOn(document, 'hidden', 'get');
    const me = (notify_browser: boolean) => queryClient.setQueryData<Partial<TMe>>(meQueryKey, { notify_browser });

    hidden.mockReturnValue(true);
    me(false);
    dispatchLiveEvent({ type: 'notification', data: notification }, deps);
    expect(shown).toHaveLength(0);

    me(true);
    hidden.mockReturnValue(false);
    dispatchLiveEvent({ type: 'notification', data: notification }, deps);
    expect(shown).toHaveLength(0);

    FakeNotification.permission = 'denied';
    hidden.mockReturnValue(true);
    dispatchLiveEvent({ type: 'notification', data: notification }, deps);
    expect(shown).toHaveLength(0);

    FakeNotification.permission = 'granted';
    dispatchLiveEvent({ type: 'notification', data: notification }, deps);
    // The pop-up's text waits for the markdown parser's chunk; a pop-up the cases above had wrongly
    // started would come first (the same import), so exactly one here means none of them did.
    await vi.waitFor(() =>
      expect(shown).toEqual([
        {
          title: 'Bob mentioned you in Shot 1 · Compositing',
          options: expect.objectContaining({ body: 'please look @ada', tag: 'stageline-notification-7' }) as unknown,
        },
      ]),
    );
    hidden.mockRestore();
  });

  it('puts a comment event into the loaded thread of its task, once', () => {
    const key = commentKeys.thread({ task: 50 });
    queryClient.setQueryData<InfiniteData<TCommentPage>>(key, {
      pages: [{ offset: 0, count: 1, results: [comment(1, 'first')] }],
      pageParams: ['tail'],
    });
    const created = { action: 'created' as const, comment: comment(2, 'second') };
    dispatchLiveEvent({ type: 'comment', data: created }, deps);
    dispatchLiveEvent({ type: 'comment', data: created }, deps);
    let page = queryClient.getQueryData<InfiniteData<TCommentPage>>(key)!.pages[0]!;
    expect(page.results.map((c) => c.text)).toEqual(['first', 'second']);
    expect(page.count).toBe(2);

    dispatchLiveEvent({ type: 'comment', data: { action: 'updated', comment: comment(1, 'first, edited') } }, deps);
    dispatchLiveEvent({ type: 'comment', data: { action: 'deleted', comment: comment(2, 'second') } }, deps);
    page = queryClient.getQueryData<InfiniteData<TCommentPage>>(key)!.pages[0]!;
    expect(page.results.map((c) => c.text)).toEqual(['first, edited']);
    expect(page.count).toBe(1);
    // A thread nobody has open is not created.
    dispatchLiveEvent(
      { type: 'comment', data: { action: 'created', comment: { ...comment(3, 'x'), task: 99 } } },
      deps,
    );
    expect(queryClient.getQueryData(commentKeys.thread({ task: 99 }))).toBeUndefined();
  });

  it('refreshes the task, My work, its unit, the matrices, the pipeline counters, who is loaded and the reports for a task event', () => {
    const touched = [
      ['tasks', 50],
      ['tasks', 'list', { assignee: 'me' }],
      ['units', 3],
      ['units', 'matrix', { pipeline: 7 }, 0, 50],
      ['pipelines', 7],
      ['pipelines', 'list', 5],
      ['projects', 5, 'workload'],
      ['reports', 5, 'first_pass', {}],
      ['reports', 6, 'burnup', { person: 2 }],
    ];
    const untouched = [
      ['tasks', 51],
      ['projects', 5],
      ['units', 4],
      ['pipelines', 8],
      ['notifications', 'unread'],
    ];
    seed([...touched, ...untouched]);
    dispatchLiveEvent({ type: 'task', data: { id: 50, unit: 3, stage: 12, pipeline: 7, status: 'done' } }, deps);
    expect(touched.map(stale)).toEqual(touched.map(() => true));
    expect(untouched.map(stale)).toEqual(untouched.map(() => false));
  });

  it('refreshes the file lists and the matrices (paperclip counts) for a files event', () => {
    const touched = [
      ['attachments', { task: 50 }],
      ['attachments', { unit: 3 }],
      ['units', 'matrix', { pipeline: 7 }, 0, 50],
    ];
    const untouched = [
      ['tasks', 50],
      ['comments', { task: 50 }],
    ];
    seed([...touched, ...untouched]);
    expect(parseLiveMessage({ id: '9', event: 'files', data: '{"id":4,"action":"created"}' })).toEqual({
      type: 'files',
      data: { id: 4, action: 'created' },
    });
    dispatchLiveEvent({ type: 'files', data: { id: 4, action: 'created' } }, deps);
    expect(touched.map(stale)).toEqual(touched.map(() => true));
    expect(untouched.map(stale)).toEqual(untouched.map(() => false));
  });

  it('refreshes the timelines of the unit and of the tasks a history event names, and no others', () => {
    const touched = [
      ['history', 'unit', 3, 'all'],
      ['history', 'unit', 3, 'status'],
      ['history', 'task', 50, 'all'],
    ];
    const untouched = [
      ['history', 'unit', 4, 'all'],
      ['history', 'task', 51, 'all'],
      ['tasks', 50],
    ];
    seed([...touched, ...untouched]);
    expect(parseLiveMessage({ id: '9', event: 'history', data: '{"unit":3,"tasks":[50]}' })).toEqual({
      type: 'history',
      data: { unit: 3, tasks: [50] },
    });
    dispatchLiveEvent({ type: 'history', data: { unit: 3, tasks: [50] } }, deps);
    expect(touched.map(stale)).toEqual(touched.map(() => true));
    expect(untouched.map(stale)).toEqual(untouched.map(() => false));
  });

  it("refreshes only that pipeline's matrix for a units event, and everything for reset", () => {
    seed([
      ['units', 'matrix', { pipeline: 7 }, 0, 50],
      ['units', 'matrix', { pipeline: 8 }, 0, 50],
      ['projects', 5],
      ['tasks', 50],
    ]);
    dispatchLiveEvent({ type: 'units', data: { pipeline: 7, project: 5 } }, deps);
    expect(stale(['units', 'matrix', { pipeline: 7 }, 0, 50])).toBe(true);
    expect(stale(['units', 'matrix', { pipeline: 8 }, 0, 50])).toBe(false);
    expect(stale(['projects', 5])).toBe(true);
    expect(stale(['tasks', 50])).toBe(false);

    dispatchLiveEvent({ type: 'reset', data: {} }, deps);
    expect(stale(['units', 'matrix', { pipeline: 8 }, 0, 50])).toBe(true);
    expect(stale(['tasks', 50])).toBe(true);
  });
});
