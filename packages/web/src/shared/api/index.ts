import { createApiClient } from './client';
import { tokenStore } from './tokens';
import { currentLanguage, i18n } from '../i18n';
import { clearSessionStorage } from '../lib/storage';
import { useShellStore } from '../lib/shell-store';
import { showToast } from '../ui/toast';

type Listener = () => void;
const logoutListeners = new Set<Listener>();
let debugEnabled = false;

/** Serialises token refreshes across tabs where the browser has the Web Locks API. */
function refreshLock<T>(run: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? (locks.request('stageline-token-refresh', run) as Promise<T>) : run();
}

/** Lets the app react to a logout the transport forced (a 401), e.g. by going to the login screen. */
export function onForcedLogout(listener: Listener): () => void {
  logoutListeners.add(listener);
  return () => logoutListeners.delete(listener);
}

/** The app's API client, wired to i18n, toasts, the shell store and the session storage. */
export const api = createApiClient({
  baseUrl: '/api/',
  getLanguage: currentLanguage,
  tokens: tokenStore,
  notify: showToast,
  t: (key, params) => i18n.t(key, params),
  onLogout: () => {
    clearSessionStorage();
    logoutListeners.forEach((listener) => listener());
  },
  onPageError: (message) => useShellStore.getState().setPageError(message),
  onMaintenance: () => useShellStore.getState().setMaintenance(true),
  debug: () => debugEnabled,
  lock: refreshLock,
});

/** The debug flag of docs/rules.md §Web (off by default; the server's DEBUG setting turns it on). */
export function setDebug(on: boolean): void {
  debugEnabled = on;
}

export { ApiError } from './client';
