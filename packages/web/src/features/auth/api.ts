import type { z } from 'zod';
import type {
  TLogin,
  TMe,
  TOAuthLoginResult,
  TOAuthProvider,
  TRegister,
  TTokenPair,
  ZOtpPurpose,
} from '@stageline/shared';
import { api, ApiError } from '../../shared/api';
import { loadAuthSchemas, type TAuthSchemas } from './lib/auth-schemas';

/**
 * The calls of accounts and sign-in (docs/rules.md §API). Sign-in calls are `anonymous` (no bearer, and
 * a 401 means wrong credentials, not a lost session) and `silent`: the screens show their errors.
 * Answers are checked with the shared schemas, fetched beside the call the first time (not part of
 * /login's first load: docs/decisions.md, entry 118).
 */
type TOtpPurpose = z.infer<typeof ZOtpPurpose>;

const quiet = { anonymous: true, silent: true } as const;

export const meQueryKey = ['users', 'me'] as const;

/**
 * GET users/me/: the signed-in user, the root of the session. Query options as a plain object (no
 * `queryOptions` helper): this module is on /login's first load, TanStack Query is not (entry 118).
 */
export const meQueryOptions = () => ({
  queryKey: meQueryKey,
  queryFn: async ({ signal }: { signal: AbortSignal }): Promise<TMe> => {
    const [answer, { ZMe }] = await Promise.all([api.get<unknown>('users/me/', { signal }), loadAuthSchemas()]);
    return ZMe.parse(answer);
  },
  staleTime: 60_000,
});

/** GET oauth/providers/: the configured providers; none when the server has no such call (404). */
export const oauthProvidersQueryOptions = () => ({
  queryKey: ['oauth', 'providers'] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }): Promise<TOAuthProvider[]> => {
    try {
      const [answer, { ZOAuthProvider }] = await Promise.all([
        api.get<unknown>('oauth/providers/', { ...quiet, signal }),
        loadAuthSchemas(),
      ]);
      return ZOAuthProvider.array().parse(answer);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return [];
      throw error;
    }
  },
  staleTime: Infinity,
  retry: false,
});

/** Where a provider's button leads: the server starts the authorization-code flow there. */
export const oauthStartUrl = (provider: string, next?: string | null) =>
  `/api/oauth/login/${encodeURIComponent(provider)}/start/${next ? `?next=${encodeURIComponent(next)}` : ''}`;

/** What the provider sent the browser back with, passed on to the server as it came. */
export type TOAuthCallback = { code: string; state: string; iss?: string };

const oauthFinishing = new Map<string, Promise<TOAuthLoginResult>>();

/**
 * GET oauth/login/{provider}/: exchanges the provider's code (the flow cookie proves this browser
 * started it). A code works once, so a screen mounted twice (React's strict mode) shares one call.
 */
export function finishOAuth(provider: string, callback: TOAuthCallback): Promise<TOAuthLoginResult> {
  const key = `${provider} ${callback.code}`;
  let call = oauthFinishing.get(key);
  if (!call) {
    call = Promise.all([
      api.get<unknown>(`oauth/login/${encodeURIComponent(provider)}/`, { ...quiet, query: callback }),
      loadAuthSchemas(),
    ]).then(([answer, { ZOAuthLoginResult }]) => ZOAuthLoginResult.parse(answer));
    oauthFinishing.set(key, call);
  }
  return call;
}

/** POST oauth/link/{provider}/: the provider URL that links an account to the signed-in user. */
export const startOAuthLink = (provider: string) =>
  Promise.all([
    api.post<unknown>(`oauth/link/${encodeURIComponent(provider)}/`, undefined, { silent: true }),
    loadAuthSchemas(),
  ]).then(([answer, { ZOAuthLinkStart }]) => ZOAuthLinkStart.parse(answer));

export const isTokens = (answer: unknown): answer is TTokenPair =>
  typeof (answer as Partial<TTokenPair> | null)?.access === 'string' &&
  typeof (answer as Partial<TTokenPair> | null)?.refresh === 'string';

/** A call's answer checked with one of the auth schemas, the schemas fetched beside the call. */
async function checked<T>(call: Promise<unknown>, schema: (schemas: TAuthSchemas) => { parse: (data: unknown) => T }) {
  const [answer, schemas] = await Promise.all([call, loadAuthSchemas()]);
  return schema(schemas).parse(answer);
}

export const login = (body: TLogin) => checked(api.post<unknown>('users/login/', body, quiet), (s) => s.ZLoginResult);
export const register = (body: TRegister) =>
  checked(api.post<unknown>('users/register/', body, quiet), (s) => s.ZEphemeral);
export const checkCode = (code: string, ephemeralToken: string) =>
  checked(api.post<unknown>('otp/check/', { code, ephemeral_token: ephemeralToken }, quiet), (s) => s.ZTokens);
/** POST otp/send/: with an ephemeral token before sign-in, or signed in with a purpose. */
export const sendCode = (target: { ephemeralToken: string } | { purpose: TOtpPurpose }) =>
  'ephemeralToken' in target
    ? api.post<unknown>('otp/send/', { ephemeral_token: target.ephemeralToken }, quiet)
    : api.post<unknown>('otp/send/', { purpose: target.purpose }, { silent: true });
/** POST users/logout/: the refresh token in the body is the whole credential, so no bearer (nor refresh). */
export const logoutCall = (refresh: string) => api.post<void>('users/logout/', { refresh }, quiet);

/**
 * PATCH users/{id}/ with the browser's time zone, for an account that never told one. Signed in (the
 * call needs the bearer, unlike the sign-in calls above) and silent: nobody asked for it, so a
 * failure is not shown (docs/decisions.md, entry 159).
 */
export const saveTimeZone = (userId: number, timeZone: string) =>
  api.patch<unknown>(`users/${userId}/`, { time_zone: timeZone }, { silent: true });

export const requestPasswordReset = (email: string) => api.post<unknown>('users/password_reset/', { email }, quiet);
export const validateResetToken = (token: string, email: string) =>
  api.post<unknown>('users/password_reset/validate_token/', { token, email }, quiet);
export const confirmPasswordReset = (body: { token: string; email: string; password: string }) =>
  api.post<unknown>('users/password_reset/confirm/', body, quiet);
export const confirmEmailChange = (token: string) =>
  checked(api.post<unknown>('users/me/email/confirm/', { token }, { silent: true }), (s) => s.ZEmailConfirmed);

/**
 * The ephemeral token of a 403 `email_not_verified` login answer (`ZEmailNotVerified`; a new code
 * was e-mailed with it): undefined for other errors, null if the answer lacks it.
 */
export function unverifiedEmailToken(error: unknown): string | null | undefined {
  if (!(error instanceof ApiError) || error.code !== 'email_not_verified') return undefined;
  const token = (error.body as { ephemeral_token?: unknown } | undefined)?.ephemeral_token;
  return typeof token === 'string' && token ? token : null;
}
