import { showToast } from '../../../shared/ui/toast';

/** Where the browser stands on notifications: no API, never asked, refused, or allowed. */
export type TBrowserPermission = 'unsupported' | 'default' | 'denied' | 'granted';

export function browserPermission(): TBrowserPermission {
  if (typeof window === 'undefined' || typeof window.Notification !== 'function') return 'unsupported';
  return Notification.permission;
}

/** `requestPermission` answers a promise in current browsers and calls back in old Safari. */
function requestPermission(): Promise<NotificationPermission> {
  return new Promise((resolve, reject) => {
    try {
      const answer = Notification.requestPermission(resolve) as Promise<NotificationPermission> | undefined;
      if (answer) answer.then(resolve, reject);
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}

/**
 * Asks the browser for permission, with the messages of docs/rules.md §Web when it cannot ('Your
 * browser does not support notifications'), will not ('You have blocked notifications …'), or the
 * request itself failed ('Failed to turn on notifications'). True when notifications may be shown.
 */
export async function askBrowserPermission(t: (key: string) => string): Promise<boolean> {
  const state = browserPermission();
  if (state === 'unsupported') {
    showToast({ kind: 'error', message: t('Your browser does not support notifications') });
    return false;
  }
  if (state === 'granted') return true;
  if (state === 'denied') {
    showToast({
      kind: 'warning',
      message: t('You have blocked notifications (change the site settings in the browser)'),
    });
    return false;
  }
  try {
    if ((await requestPermission()) === 'granted') return true;
    showToast({
      kind: 'warning',
      message: t('You have blocked notifications (change the site settings in the browser)'),
    });
  } catch {
    showToast({ kind: 'error', message: t('Failed to turn on notifications') });
  }
  return false;
}

/** Whether a pop-up would show now: the user asked for them, the browser allows them, the tab is hidden. */
export function browserNotificationWanted(enabled: boolean): boolean {
  return enabled && browserPermission() === 'granted' && document.hidden;
}

/**
 * A system pop-up for a live notification while the tab is hidden and the user asked for them;
 * clicking it brings the tab forward and opens `path`. Answers whether one was shown.
 */
export function showBrowserNotification(
  options: { enabled: boolean; title: string; body: string; tag: string; path: string | null },
  open: (path: string) => void,
): boolean {
  if (!browserNotificationWanted(options.enabled)) return false;
  try {
    const popup = new Notification(options.title, { body: options.body, tag: options.tag, icon: '/favicon.svg' });
    popup.onclick = () => {
      window.focus();
      if (options.path) open(options.path);
      popup.close();
    };
    return true;
  } catch {
    // Android Chrome allows notifications only from a service worker: the toast is enough there.
    return false;
  }
}
