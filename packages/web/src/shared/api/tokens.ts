import { StorageKeys } from '@stageline/shared';
import { storage } from '../lib/storage';

export type TTokens = { access: string; refresh: string };

/** What the transport needs of the token storage. */
export type TTokenStore = {
  get: () => TTokens | null;
  set: (tokens: TTokens) => void;
  clear: () => void;
};

function isTokens(value: unknown): value is TTokens {
  const v = value as Partial<TTokens> | null;
  return typeof v?.access === 'string' && typeof v.refresh === 'string';
}

type Listener = () => void;
const listeners = new Set<Listener>();
const emit = () => listeners.forEach((listener) => listener());

/**
 * The session's JWT pair, kept under `authTokens` so a reload stays signed in. Subscribers hear
 * every change, this tab's and (through the `storage` event) other tabs', so signing out in one tab
 * signs out all of them.
 */
export const tokenStore = {
  get: (): TTokens | null => storage.getJson(StorageKeys.authTokens, isTokens),
  set: (tokens: TTokens): void => {
    storage.setJson(StorageKeys.authTokens, tokens);
    emit();
  },
  clear: (): void => {
    storage.remove(StorageKeys.authTokens);
    emit();
  },
  /** The access token alone: a stable snapshot for `useSyncExternalStore`. */
  access: (): string | null => tokenStore.get()?.access ?? null,
  subscribe: (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
} satisfies TTokenStore & Record<string, unknown>;

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === StorageKeys.authTokens || event.key === null) emit();
  });
}
