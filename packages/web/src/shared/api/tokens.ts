import { StorageKeys } from '@stageline/shared';
import { storage } from '../lib/storage';

export type TTokens = { access: string; refresh: string };

function isTokens(value: unknown): value is TTokens {
  const v = value as Partial<TTokens> | null;
  return typeof v?.access === 'string' && typeof v.refresh === 'string';
}

/** The session's JWT pair, kept under `authTokens` so a reload stays signed in. */
export const tokenStore = {
  get: (): TTokens | null => storage.getJson(StorageKeys.authTokens, isTokens),
  set: (tokens: TTokens): void => storage.setJson(StorageKeys.authTokens, tokens),
  clear: (): void => storage.remove(StorageKeys.authTokens),
};

export type TTokenStore = typeof tokenStore;
