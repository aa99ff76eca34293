import { StorageKeys } from '@stageline/shared';
import { storage } from '../../shared/lib/storage';

/** The workspace the user works in (`current_workspace`), or null when none is selected. */
export function getCurrentWorkspaceId(): number | null {
  const raw = storage.get(StorageKeys.currentWorkspace);
  const id = raw === null ? NaN : Number(raw);
  return Number.isInteger(id) && id > 0 ? id : null;
}

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

/** Workspaces this tab stopped working in (deleted, left, gone): never adopted again as `recent_workspace`. */
const forgotten = new Set<number>();
export const wasForgotten = (id: number) => forgotten.has(id);

/** Stores the current workspace and tells every subscriber (the header switcher, the guards). */
export function setCurrentWorkspaceId(id: number | null): void {
  const previous = getCurrentWorkspaceId();
  if (id === null) {
    if (previous !== null) forgotten.add(previous);
    storage.remove(StorageKeys.currentWorkspace);
  } else {
    forgotten.delete(id);
    storage.set(StorageKeys.currentWorkspace, String(id));
  }
  notify();
}

/** Forgets the current workspace only when it is `id` (after deleting or leaving that workspace). */
export function forgetCurrentWorkspace(id: number): void {
  forgotten.add(id);
  if (getCurrentWorkspaceId() === id) setCurrentWorkspaceId(null);
}

/** For useSyncExternalStore: changes made here and in other tabs (the `storage` event). */
export function subscribeCurrentWorkspace(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === StorageKeys.currentWorkspace) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
