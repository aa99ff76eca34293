import { queryOptions } from '@tanstack/react-query';
import {
  ZApiToken,
  ZApiTokenCreated,
  ZDetail,
  ZMe,
  ZSession,
  type TApiTokenCreate,
  type TApiTokenCreated,
  type TMe,
  type TPasswordChange,
  type TUserPatch,
  ZAvatarSaved,
} from '@stageline/shared';
import { api } from '../../shared/api';
import { queryClient } from '../../shared/api/query-client';
import { meQueryKey } from '../auth';

/** Profile calls (issue 3). All `silent`: the sections show their own errors and successes. */
const silent = { silent: true } as const;

/** PATCH users/{id}/ (→ `ZMe`): names, username, language, notification settings. */
export async function patchMe(id: number, body: TUserPatch): Promise<void> {
  queryClient.setQueryData<TMe>(meQueryKey, ZMe.parse(await api.patch<unknown>(`users/${id}/`, body, silent)));
}

/** POST users/me/avatar/ (multipart `file`) → `ZAvatarSaved` with the new picture's URL. */
export async function uploadAvatar(file: File): Promise<void> {
  const { avatar } = ZAvatarSaved.parse(await api.upload<unknown>('users/me/avatar/', { file }, {}, silent));
  queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, avatar } : old));
}

export async function clearAvatar(): Promise<void> {
  await api.delete('users/me/avatar/', silent);
  queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, avatar: null } : old));
}

export const changeEmail = (email: string, code: string) =>
  api.post<unknown>('users/me/email/', { email, code }, silent);

/** POST users/me/password/ (`ZPasswordChange`): also revokes every API token when asked. */
export const changePassword = (input: TPasswordChange) => api.post<unknown>('users/me/password/', input, silent);

/** POST users/me/two_factor/ (→ `ZDetail`). */
export async function setTwoFactor(enabled: boolean, code: string): Promise<void> {
  ZDetail.parse(await api.post<unknown>('users/me/two_factor/', { enabled, code }, silent));
  queryClient.setQueryData<TMe>(meQueryKey, (old) => (old ? { ...old, two_factor: enabled } : old));
}

/** DELETE users/me/oauth/{provider}/: refused (400) for the last way to sign in. */
export async function unlinkOAuth(provider: string): Promise<string | null> {
  const answer = ZDetail.parse(await api.delete<unknown>(`users/me/oauth/${encodeURIComponent(provider)}/`, silent));
  queryClient.setQueryData<TMe>(meQueryKey, (old) =>
    old ? { ...old, oauth_accounts: old.oauth_accounts.filter((account) => account.provider !== provider) } : old,
  );
  return answer.detail;
}

export const sessionsQueryKey = ['users', 'me', 'sessions'] as const;
export const sessionsQueryOptions = () =>
  queryOptions({
    queryKey: sessionsQueryKey,
    queryFn: async ({ signal }) => ZSession.array().parse(await api.get<unknown>('users/me/sessions/', { signal })),
  });

export async function revokeSession(id: number): Promise<void> {
  await api.delete(`users/me/sessions/${id}/`, silent);
  await queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
}

/** POST users/me/sessions/end_others/: every session but this one ends; how many did. */
export async function endOtherSessions(): Promise<number> {
  const answer = await api.post<{ ended: number }>('users/me/sessions/end_others/', undefined, silent);
  await queryClient.invalidateQueries({ queryKey: sessionsQueryKey });
  return answer.ended;
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
