import { StorageKeys } from '@stageline/shared';

/**
 * localStorage that never throws (private mode, quota, disabled storage) and reads JSON safely.
 * Every key the app stores is named in StorageKeys (docs/rules.md §Web).
 */
export const storage = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(key, value);
    } catch {
      // Storage full or unavailable: the app keeps working for this tab.
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // Nothing to remove when storage is unavailable.
    }
  },
  getJson<T>(key: string, isValid: (value: unknown) => value is T): T | null {
    const raw = storage.get(key);
    if (raw === null) return null;
    try {
      const value: unknown = JSON.parse(raw);
      return isValid(value) ? value : null;
    } catch {
      return null;
    }
  },
  setJson(key: string, value: unknown): void {
    storage.set(key, JSON.stringify(value));
  },
};

/**
 * What logging out forgets (docs/rules.md §Web): tokens, current workspace, last project, and the
 * comment drafts (decision 191), which the next person at this browser must not find.
 */
export function clearSessionStorage(): void {
  storage.remove(StorageKeys.authTokens);
  storage.remove(StorageKeys.currentWorkspace);
  storage.remove(StorageKeys.lastProject);
  try {
    for (const key of Object.keys(window.localStorage)) {
      if (key.startsWith(StorageKeys.commentDraftPrefix)) storage.remove(key);
    }
  } catch {
    // Storage unavailable: there are no drafts to forget.
  }
}
