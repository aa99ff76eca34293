import { BuildHeader, ClientConstants, type TFieldErrors } from '@stageline/shared';
import type { TTokens, TTokenStore } from './tokens';

export type TToastKind = 'success' | 'info' | 'warning' | 'error';

/** How the transport tells the person what happened; the app wires it to Mantine notifications. */
export type TNotifier = (toast: { kind: TToastKind; message: string; title?: string }) => void;

export type TApiClientDeps = {
  /** The API root, with a trailing slash: `/api/`. */
  baseUrl: string;
  fetch?: typeof fetch;
  getLanguage: () => string;
  tokens: TTokenStore;
  notify: TNotifier;
  t: (key: string, params?: Record<string, unknown>) => string;
  /** Called after a 401 that cannot be recovered has cleared the session. */
  onLogout: () => void;
  /** A page-level message (server unavailable), or null when a request succeeds again. */
  onPageError: (message: string | null) => void;
  /** The server answered 503 `maintenance`. */
  onMaintenance?: () => void;
  /** Each answer's web build, as its server names it (`BuildHeader`; docs/decisions.md, entry 139). */
  onBuild?: (build: string) => void;
  sleep?: (ms: number) => Promise<void>;
  debug?: () => boolean;
  /**
   * Runs a token refresh under a lock shared by the app's tabs (the Web Locks API), so two tabs
   * never spend the same rotated refresh token: reusing one revokes the whole family.
   */
  lock?: <T>(run: () => Promise<T>) => Promise<T>;
};

/** What a refresh came to: new tokens, a refused refresh token (the session is over), or a failure. */
export type TRefreshOutcome = 'ok' | 'expired' | 'failed';

export type TQuery = Record<string, string | number | boolean | null | undefined | (string | number)[]>;

export type TRequestOptions = {
  query?: TQuery;
  /** JSON body, or FormData for a multipart upload. */
  body?: unknown;
  signal?: AbortSignal;
  /** The caller shows errors itself (a form, say): no toast for error bodies. */
  silent?: boolean;
  /** Do not send the bearer token nor refresh it (sign-in calls). */
  anonymous?: boolean;
  /** A successful answer is returned as a Blob (file downloads); errors are read as usual. */
  blob?: boolean;
};

/**
 * A failed call. `fields` holds `{"field": ["message"]}` errors for forms to show. `shown` says the
 * transport has already told the person (a toast, the unavailable banner, the maintenance screen, the
 * sign-in page): the one answer every caller asks before saying anything itself (`shownByTransport`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly fields?: TFieldErrors,
    readonly body?: unknown,
    readonly shown = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** Whether the transport has already told the person about this failure (docs/architecture.md, "Errors: who tells the person"). */
export const shownByTransport = (error: unknown): boolean => error instanceof ApiError && error.shown;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function buildQuery(query: TQuery | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((item) => params.append(key, String(item)));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function readBody(response: Response, asBlob = false): Promise<unknown> {
  if (response.status === 204) return undefined;
  if (asBlob && response.ok) return response.blob();
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `{"field": ["message"]}`: an object whose every value is a list of strings. */
function asFieldErrors(body: unknown): TFieldErrors | undefined {
  if (!isObject(body) || 'detail' in body) return undefined;
  const entries = Object.entries(body);
  if (entries.length === 0) return undefined;
  return entries.every(([, v]) => Array.isArray(v) && v.every((m) => typeof m === 'string'))
    ? (body as TFieldErrors)
    : undefined;
}

/**
 * The one way the web app talks to the API (docs/rules.md §Web): base URL, `Accept-Language`,
 * bearer token, JSON or multipart bodies, and the transport rules of the error catalogue: slow
 * answers, unavailable server, token refresh with retries, logout on other 401s, and toasts for
 * `detail` and `message`.
 */
export function createApiClient(deps: TApiClientDeps) {
  const doFetch = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const sleep = deps.sleep ?? defaultSleep;
  /** One refresh at a time: rotated refresh tokens may be used once, so parallel 401s share it. */
  let refreshing: Promise<TRefreshOutcome> | null = null;

  function log(...args: unknown[]) {
    // eslint-disable-next-line no-console
    if (deps.debug?.()) console.debug('[api]', ...args);
  }

  function logout() {
    deps.tokens.clear();
    deps.onLogout();
  }

  async function send(method: string, path: string, options: TRequestOptions): Promise<Response> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Language': deps.getLanguage(),
    };
    const tokens = options.anonymous ? null : deps.tokens.get();
    if (tokens) headers.Authorization = `Bearer ${tokens.access}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) {
      body = options.body; // the browser sets the multipart boundary
    } else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const url = `${deps.baseUrl}${path.replace(/^\//, '')}${buildQuery(options.query)}`;
    log(method, url);
    const response = await doFetch(url, { method, headers, body, signal: options.signal, credentials: 'same-origin' });
    const build = response.headers.get(BuildHeader);
    if (build) deps.onBuild?.(build);
    return response;
  }

  async function refreshTokens(): Promise<TRefreshOutcome> {
    const before = deps.tokens.get();
    if (!before) return 'expired';
    if (!deps.lock) return refreshWith(before);
    return deps.lock(async () => {
      const current = deps.tokens.get();
      if (!current) return 'expired';
      // Another tab rotated the pair while this one waited for the lock: use its tokens.
      if (current.refresh !== before.refresh) return 'ok';
      return refreshWith(current);
    });
  }

  async function refreshWith(current: TTokens): Promise<TRefreshOutcome> {
    try {
      const response = await send('POST', 'token/refresh/', { body: { refresh: current.refresh }, anonymous: true });
      if (response.ok) {
        const tokens = (await readBody(response)) as Partial<TTokens> | undefined;
        if (tokens?.access && tokens.refresh) {
          deps.tokens.set({ access: tokens.access, refresh: tokens.refresh });
          return 'ok';
        }
        return 'failed';
      }
      return response.status === 401 || response.status === 400 ? 'expired' : 'failed';
    } catch {
      return 'failed';
    }
  }

  function sharedRefresh() {
    refreshing ??= refreshTokens().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  function unavailable(status: number): never {
    deps.notify({
      kind: 'error',
      title: deps.t('Server Unavailable'),
      message: deps.t('Check your Internet connection.'),
    });
    deps.onPageError(deps.t('Server Unavailable. Check your Internet connection or try later.'));
    throw new ApiError(status, deps.t('Server Unavailable'), 'unavailable', undefined, undefined, true);
  }

  async function sendOrUnavailable(method: string, path: string, options: TRequestOptions): Promise<Response> {
    try {
      return await send(method, path, options);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      return unavailable(0);
    }
  }

  function isTokenNotValid(response: Response, body: unknown) {
    return response.status === 401 && isObject(body) && body.code === 'token_not_valid';
  }

  async function request<T>(method: string, path: string, options: TRequestOptions = {}): Promise<T> {
    let response = await sendOrUnavailable(method, path, options);
    let body = await readBody(response, options.blob);

    if (isTokenNotValid(response, body) && !options.anonymous) {
      let recovered = false;
      for (let attempt = 1; attempt <= ClientConstants.tokenRefreshRetries; attempt++) {
        await sleep(ClientConstants.tokenRefreshDelayMs * attempt);
        const outcome = await sharedRefresh();
        if (outcome === 'expired') {
          logout();
          throw new ApiError(401, deps.t('You must be authorized'), 'not_authenticated', undefined, body, true);
        }
        if (outcome === 'failed') continue;
        response = await sendOrUnavailable(method, path, options);
        body = await readBody(response, options.blob);
        if (!isTokenNotValid(response, body)) {
          recovered = true;
          break;
        }
      }
      if (!recovered) {
        deps.notify({ kind: 'error', title: deps.t('Error'), message: deps.t('Something wrong. Try later.') });
        throw new ApiError(401, deps.t('Something wrong. Try later.'), 'token_not_valid', undefined, body, true);
      }
    }

    const code = isObject(body) && typeof body.code === 'string' ? body.code : undefined;
    const detail = isObject(body) && typeof body.detail === 'string' ? body.detail : undefined;

    if (response.status === 408 || response.status === 504) {
      deps.notify({
        kind: 'error',
        title: deps.t('Request taking too long'),
        message: deps.t('Check your Internet connection.'),
      });
      throw new ApiError(response.status, deps.t('Request taking too long'), code, undefined, body, true);
    }
    if (response.status === 503 && code === 'maintenance') {
      deps.onMaintenance?.();
      throw new ApiError(503, detail ?? '', code, undefined, body, true);
    }
    // A full request queue is a passing state with its own message (when to try again), not an
    // outage; said even for a silent call, whose caller speaks only for the record's own errors.
    if (response.status === 503 && code === 'server_busy') {
      const message = detail ?? deps.t('Something wrong. Try later.');
      deps.notify({ kind: 'warning', title: deps.t('Error'), message });
      throw new ApiError(503, message, code, undefined, body, true);
    }
    if (response.status === 502 || response.status === 503) return unavailable(response.status);
    if (response.status === 401 && !options.anonymous) {
      logout();
      throw new ApiError(401, detail ?? deps.t('You must be authorized'), code, undefined, body, true);
    }

    deps.onPageError(null);

    if (!response.ok) {
      const fields = asFieldErrors(body);
      const message = detail ?? (typeof body === 'string' && body ? body : deps.t('Unknown error'));
      const toast = !options.silent && !fields;
      if (toast) deps.notify({ kind: 'error', title: deps.t('Error'), message });
      throw new ApiError(response.status, message, code, fields, body, toast);
    }

    if (!options.silent && isObject(body) && !(body instanceof Blob)) {
      if (typeof body.detail === 'string') deps.notify({ kind: 'info', title: deps.t('Info'), message: body.detail });
      else if (typeof body.message === 'string')
        deps.notify({ kind: 'success', title: deps.t('Succes'), message: body.message });
    }
    return body as T;
  }

  /**
   * Refreshes the tokens now, before the access token expires, sharing a refresh already in flight.
   * A refused refresh token ends the session as a 401 would.
   */
  async function refresh(): Promise<TRefreshOutcome> {
    if (!deps.tokens.get()) return 'expired';
    const outcome = await sharedRefresh();
    if (outcome === 'expired') logout();
    return outcome;
  }

  return {
    request,
    refresh,
    get: <T>(path: string, options?: TRequestOptions) => request<T>('GET', path, options),
    post: <T>(path: string, body?: unknown, options?: TRequestOptions) =>
      request<T>('POST', path, { ...options, body }),
    put: <T>(path: string, body?: unknown, options?: TRequestOptions) => request<T>('PUT', path, { ...options, body }),
    patch: <T>(path: string, body?: unknown, options?: TRequestOptions) =>
      request<T>('PATCH', path, { ...options, body }),
    delete: <T = void>(path: string, options?: TRequestOptions) => request<T>('DELETE', path, options),
    /** GET of a file (a CSV export, say) with the bearer token, as a Blob. */
    download: (path: string, options?: TRequestOptions) => request<Blob>('GET', path, { ...options, blob: true }),
    /** Multipart upload: `files` become form parts beside the plain `fields`. */
    upload: <T>(
      path: string,
      files: Record<string, Blob>,
      fields: Record<string, string> = {},
      options?: TRequestOptions,
    ) => {
      const form = new FormData();
      Object.entries(fields).forEach(([key, value]) => form.append(key, value));
      Object.entries(files).forEach(([key, file]) => form.append(key, file));
      return request<T>('POST', path, { ...options, body: form });
    },
  };
}

export type TApiClient = ReturnType<typeof createApiClient>;
