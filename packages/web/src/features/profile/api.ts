import { queryOptions } from '@tanstack/react-query';
import {
  ZApiToken,
  ZApiTokenCreated,
  type TApiTokenCreate,
  type TApiTokenCreated,
  type TMe,
  type TSession,
  type TUserPatch,
  type ZAvatarSaved,
} from '@stageline/shared';
import type { z } from 'zod';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';
import { meQueryKey } from '../auth';

type TAvatarSaved = z.infer<typeof ZAvatarSaved>;

/** Profile calls (issue 3). All `silent`: the sections show their own errors and successes. */
const silent = { silent: true } as const;

/** Puts the answer of a profile call into the cached users/me/, or refetches it. */
function updateMe(answer: unknown) {
  if (answer && typeof answer === 'object' && 'id' in answer && 'username' in answer) {
    queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, ...(answer as Partial<TMe>) } : old));
  } else {
    void queryClient.invalidateQueries({ queryKey: meQueryKey });
  }
}

/** PATCH users/{id}/: names, username, language, notification settings. */
export async function patchMe(id: number, body: TUserPatch): Promise<void> {
  const answer = await api.patch<unknown>(`users/${id}/`, body, silent);
  queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, ...body } : old));
  updateMe(answer);
}

/** POST users/me/avatar/ (multipart `file`) → `ZAvatarSaved` with the new picture's URL. */
export async function uploadAvatar(file: File): Promise<void> {
  const { avatar } = await api.upload<TAvatarSaved>('users/me/avatar/', { file }, {}, silent);
  queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, avatar } : old));
}

export async function clearAvatar(): Promise<void> {
  await api.delete('users/me/avatar/', silent);
  queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, avatar: null } : old));
}

export const changeEmail = (email: string, code: string) =>
  api.post<unknown>('users/me/email/', { email, code }, silent);

export const changePassword = (code: string, password: string) =>
  api.post<unknown>('users/me/password/', { code, password }, silent);

export async function setTwoFactor(enabled: boolean, code: string): Promise<void> {
  updateMe(await api.post<unknown>('users/me/two_factor/', { enabled, code }, silent));
  queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, two_factor: enabled } : old));
}

/** DELETE users/me/oauth/{provider}/: refused (400) for the last way to sign in. */
export async function unlinkOAuth(provider: string): Promise<string | null> {
  const answer = await api.delete<{ detail?: string } | undefined>(
    `users/me/oauth/${encodeURIComponent(provider)}/`,
    silent,
  );
  queryClient.setQueryData<TMe>(meQueryKey, (old) =>
    old ? { ...old, oauth_accounts: old.oauth_accounts.filter((account) => account.provider !== provider) } : old,
  );
  return answer?.detail ?? null;
}

export const sessionsQueryKey = ['users', 'me', 'sessions'] as const;
export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: sessionsQueryKey,
    queryFn: async ({ signal }) => {
      const answer = await api.get<TSession[] | { results: TSession[] }>('users/me/sessions/', { signal });
      return Array.isArray(answer) ? answer : answer.results;
    },
  });

export async function revokeSession(id: number): Promise<void> {
  await api.delete(`users/me/sessions/${id}/`, silent);
  await queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
}

export const apiTokensQueryKey = ['users', 'me', 'tokens'] as const;
/** GET users/me/tokens/: the personal API tokens, never their secrets. */
export const apiTokensQueryOptions = () =>
  queryOptions({
    queryKey: apiTokensQueryKey,
    queryFn: async ({ signal }) => ZApiToken.array().parse(await api.get<unknown>('users/me/tokens/', { signal })),
  });

/** POST users/me/tokens/: the new token with its secret, shown once. */
export async function createApiToken(input: TApiTokenCreate): Promise<TApiTokenCreated> {
  const created = ZApiTokenCreated.parse(await api.post<unknown>('users/me/tokens/', input, silent));
  await queryClient.invalidateQueries({ queryKey: apiTokensQueryKey });
  return created;
}

export async function revokeApiToken(id: number): Promise<void> {
  await api.delete(`users/me/tokens/${id}/`, silent);
  await queryClient.invalidateQueries({ queryKey: apiTokensQueryKey });
}
