import { useSyncExternalStore } from 'react';
import { tokenStore } from '../../../shared/api/tokens';

const serverSnapshot = () => null;

/**
 * The access token while there is a session, null without one; re-renders on sign-in and sign-out.
 * Without TanStack Query: /login asks only this (docs/decisions.md, entry 118); `useSession` adds the user.
 */
export function useAccessToken(): string | null {
  return useSyncExternalStore(tokenStore.subscribe, tokenStore.access, serverSnapshot);
}
