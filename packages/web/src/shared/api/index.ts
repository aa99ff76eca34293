import { createApiClient } from './client';
import { tokenStore } from './tokens';
import { currentLanguage, i18n } from '../i18n';
import { clearSessionStorage } from '../lib/storage';
import { useShellStore } from '../lib/shell-store';
import { showToast } from '../ui/toast';
import { showUpdateNotice } from '../ui/update-notice';

type Listener = () => void;
const logoutListeners = new Set<Listener>();
let debugEnabled = false;
/** The build this tab runs (its entry script's path), once `setOwnBuild` has told it. */
let ownBuild: string | null = null;

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
  onBuild: (build) => {
    if (ownBuild !== null && build !== ownBuild) showUpdateNotice();
  },
  debug: () => debugEnabled,
  lock: refreshLock,
});

/**
 * The build this tab runs: the path of its entry script, which the server names in every API
 * answer for the build it serves; another name means a newer build is out (docs/decisions.md,
 * entry 139). Set by the built app's entry only, so a development server never compares.
 */
export function setOwnBuild(build: string): void {
  ownBuild = build;
}

/** The debug flag of docs/rules.md §Web (off by default; the server's DEBUG setting turns it on). */
export function setDebug(on: boolean): void {
  debugEnabled = on;
}

export { ApiError, shownByTransport } from './client';
