import { useQuery } from '@tanstack/react-query';
import type { TMe } from '@stageline/shared';
import { isLanguage } from '@stageline/shared';
import { queryClient } from '../../../shared/api/query-client';
import { tokenStore, type TTokens } from '../../../shared/api/tokens';
import { currentLanguage, i18n } from '../../../shared/i18n';
import { clearSessionStorage } from '../../../shared/lib/storage';
import { logoutCall, meQueryOptions } from '../api';
import { useAccessToken } from './access';

export type TSessionStatus = 'anonymous' | 'loading' | 'authenticated';

/**
 * Signs in with a token pair from login, a code check or OAuth: stores it under `authTokens`, drops
 * whatever the cache held for a previous user, loads users/me/ and applies the user's language.
 * Answers the user, or null when users/me/ failed (the guard retries it).
 */
export async function signIn(tokens: TTokens): Promise<TMe | null> {
  queryClient.clear();
  tokenStore.set(tokens);
  try {
    const me = await queryClient.fetchQuery(meQueryOptions());
    if (isLanguage(me.language) && me.language !== currentLanguage()) await i18n.changeLanguage(me.language);
    return me;
  } catch {
    return null;
  }
}

/**
 * Ends the session (docs/rules.md §Web): revokes the refresh token on the server (a failure does not
 * keep anyone signed in), then forgets the tokens, current workspace, last project and the cache.
 */
export function signOut(): Promise<void> {
  signingOut ??= endSession().finally(() => {
    signingOut = null;
  });
  return signingOut;
}

/** One sign-out at a time (a double click, React's development double effects). */
let signingOut: Promise<void> | null = null;

async function endSession(): Promise<void> {
  const tokens = tokenStore.get();
  if (tokens) {
    try {
      await logoutCall(tokens.refresh);
    } catch {
      // Already expired or revoked, or the server is down: the local session ends all the same.
    }
  }
  tokenStore.clear();
  clearSessionStorage();
  queryClient.clear();
}

/**
 * The session: `anonymous` without tokens, `loading` while users/me/ answers, `authenticated` with
 * the user. `error` is set when users/me/ failed for another reason than a lost session.
 */
export function useSession() {
  const access = useAccessToken();
  // The app's client, given here: the auth screens and the public pages have no query provider.
  const me = useQuery({ ...meQueryOptions(), enabled: access !== null }, queryClient);
  const user = access !== null ? (me.data ?? null) : null;
  const status: TSessionStatus = access === null ? 'anonymous' : user ? 'authenticated' : 'loading';
  return {
    status,
    user,
    error: status === 'loading' && me.isError ? me.error : null,
    retry: () => void me.refetch(),
    login: signIn,
    logout: signOut,
  };
}

/** The signed-in user; only for screens under the session guard. */
export function useCurrentUser(): TMe {
  const { user } = useSession();
  if (!user) throw new Error('useCurrentUser outside the session guard');
  return user;
}

/** The name to show for a user: first and last name, else the username. */
export function displayName(user: Pick<TMe, 'first_name' | 'last_name' | 'username'>): string {
  return [user.first_name, user.last_name].filter(Boolean).join(' ').trim() || user.username;
}
