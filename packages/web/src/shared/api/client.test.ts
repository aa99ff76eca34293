import { describe, expect, it, vi } from 'vitest';
import { BuildHeader } from '@stageline/shared';
import { ApiError, createApiClient, shownByTransport, type TApiClientDeps } from './client';
import type { TTokens, TTokenStore } from './tokens';

type THandler = (url: string, init: RequestInit) => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function memoryTokens(initial: TTokens | null): TTokenStore & { value: TTokens | null } {
  const store = {
    value: initial,
    get: () => store.value,
    set: (tokens: TTokens) => {
      store.value = tokens;
    },
    clear: () => {
      store.value = null;
    },
  };
  return store;
}

/** A client whose every collaborator is a fake the test can inspect. */
function setup(handler: THandler, options: { tokens?: TTokens | null; language?: string } = {}) {
  const calls: { url: string; init: RequestInit }[] = [];
  const delays: number[] = [];
  const tokens = memoryTokens(options.tokens === undefined ? { access: 'a1', refresh: 'r1' } : options.tokens);
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const call = { url, init: init ?? {} };
    calls.push(call);
    return handler(call.url, call.init);
  });
  const deps = {
    baseUrl: '/api/',
    fetch: fetch as unknown as typeof globalThis.fetch,
    getLanguage: () => options.language ?? 'ru',
    tokens,
    notify: vi.fn<TApiClientDeps['notify']>(),
    t: (key: string) => key,
    onLogout: vi.fn<() => void>(),
    onPageError: vi.fn<(message: string | null) => void>(),
    onMaintenance: vi.fn<() => void>(),
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  } satisfies TApiClientDeps;
  return { api: createApiClient(deps), deps, calls, delays, tokens, fetch };
}

const headersOf = (init: RequestInit) => new Headers(init.headers);
const isRefresh = (url: string) => url === '/api/token/refresh/';

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the request to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('slow answers', () => {
  it.each([408, 504])('%d toasts "Request taking too long"', async (status) => {
    const { api, deps } = setup(() => json(status, {}));
    const error = await apiError(api.get('items/'));
    expect(error.status).toBe(status);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({
      kind: 'error',
      title: 'Request taking too long',
      message: 'Check your Internet connection.',
    });
    expect(deps.onLogout).not.toHaveBeenCalled();
  });
});

describe('token refresh', () => {
  it('refreshes an expired access token and retries with the new bearer', async () => {
    const { api, calls, tokens, delays, deps } = setup((url, init) => {
      if (isRefresh(url)) return json(200, { access: 'a2', refresh: 'r2' });
      const bearer = headersOf(init).get('Authorization');
      return bearer === 'Bearer a2'
        ? json(200, { id: 1 })
        : json(401, { detail: 'Token invalid', code: 'token_not_valid' });
    });

    await expect(api.get('items/1/')).resolves.toEqual({ id: 1 });

    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'GET /api/items/1/',
      'POST /api/token/refresh/',
      'GET /api/items/1/',
    ]);
    const refresh = calls[1]!;
    expect(refresh.init.body).toBe(JSON.stringify({ refresh: 'r1' }));
    expect(headersOf(refresh.init).get('Authorization')).toBeNull();
    expect(headersOf(calls[0]!.init).get('Authorization')).toBe('Bearer a1');
    expect(headersOf(calls[2]!.init).get('Authorization')).toBe('Bearer a2');
    expect(tokens.value).toEqual({ access: 'a2', refresh: 'r2' });
    expect(delays).toEqual([100]);
    expect(deps.notify).not.toHaveBeenCalled();
    expect(deps.onLogout).not.toHaveBeenCalled();
  });

  it('tries 10 times, 100 ms × attempt apart, then says "Something wrong. Try later."', async () => {
    let refreshes = 0;
    const { api, delays, deps, tokens } = setup((url) => {
      if (isRefresh(url)) {
        refreshes++;
        if (refreshes % 2) throw new TypeError('Failed to fetch');
        return json(500, { detail: 'boom' });
      }
      return json(401, { code: 'token_not_valid' });
    });

    const error = await apiError(api.get('items/'));

    expect(refreshes).toBe(10);
    expect(delays).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
    expect(error.status).toBe(401);
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({
      kind: 'error',
      title: 'Error',
      message: 'Something wrong. Try later.',
    });
    expect(deps.onLogout).not.toHaveBeenCalled();
    expect(tokens.value).toEqual({ access: 'a1', refresh: 'r1' });
  });

  it('logs out when the refresh token is refused too', async () => {
    const { api, deps, tokens, calls } = setup((url) =>
      isRefresh(url) ? json(401, { code: 'token_not_valid' }) : json(401, { code: 'token_not_valid' }),
    );

    const error = await apiError(api.get('items/'));

    expect(error.status).toBe(401);
    expect(tokens.value).toBeNull();
    expect(deps.onLogout).toHaveBeenCalledOnce();
    expect(calls.filter((c) => isRefresh(c.url))).toHaveLength(1);
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('shares one refresh between parallel requests', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { api, calls, delays } = setup(async (url, init) => {
      if (isRefresh(url)) {
        await gate;
        return json(200, { access: 'a2', refresh: 'r2' });
      }
      return headersOf(init).get('Authorization') === 'Bearer a2'
        ? json(200, { url })
        : json(401, { code: 'token_not_valid' });
    });

    const first = api.get('one/');
    const second = api.get('two/');
    await vi.waitFor(() => expect(delays).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();

    await expect(first).resolves.toEqual({ url: '/api/one/' });
    await expect(second).resolves.toEqual({ url: '/api/two/' });
    expect(calls.filter((c) => isRefresh(c.url))).toHaveLength(1);
  });
});

describe('other 401', () => {
  it('logs out', async () => {
    const { api, deps, tokens, calls } = setup(() =>
      json(401, { detail: 'You must be authorized', code: 'not_authenticated' }),
    );

    const error = await apiError(api.get('items/'));

    expect(error.status).toBe(401);
    expect(error.code).toBe('not_authenticated');
    expect(tokens.value).toBeNull();
    expect(deps.onLogout).toHaveBeenCalledOnce();
    expect(calls).toHaveLength(1);
  });
});

describe('server unavailable', () => {
  const expectUnavailable = (deps: ReturnType<typeof setup>['deps']) => {
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({
      kind: 'error',
      title: 'Server Unavailable',
      message: 'Check your Internet connection.',
    });
    expect(deps.onPageError).toHaveBeenCalledWith('Server Unavailable. Check your Internet connection or try later.');
    expect(deps.onMaintenance).not.toHaveBeenCalled();
  };

  it.each([502, 503])('%d shows the toast and the page error', async (status) => {
    const { api, deps } = setup(() => json(status, { detail: 'Bad gateway' }));
    const error = await apiError(api.get('items/'));
    expect(error.status).toBe(status);
    expectUnavailable(deps);
  });

  it('a network error shows the toast and the page error', async () => {
    const { api, deps } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    const error = await apiError(api.get('items/'));
    expect(error.code).toBe('unavailable');
    expectUnavailable(deps);
  });

  it('503 maintenance goes to the maintenance screen without a toast', async () => {
    const { api, deps } = setup(() => json(503, { detail: 'Sorry', code: 'maintenance' }));
    const error = await apiError(api.get('items/'));
    expect(error.status).toBe(503);
    expect(error.code).toBe('maintenance');
    expect(deps.onMaintenance).toHaveBeenCalledOnce();
    expect(deps.notify).not.toHaveBeenCalled();
    expect(deps.onPageError).not.toHaveBeenCalled();
  });

  it('a successful request clears the page error', async () => {
    let up = false;
    const { api, deps } = setup(() => (up ? json(200, { ok: true }) : json(502, {})));
    await apiError(api.get('items/'));
    expect(deps.onPageError).toHaveBeenLastCalledWith(
      'Server Unavailable. Check your Internet connection or try later.',
    );
    up = true;
    await api.get('items/');
    expect(deps.onPageError).toHaveBeenLastCalledWith(null);
  });
});

describe('error bodies', () => {
  it('shows a detail as an error toast and keeps status and code', async () => {
    const { api, deps } = setup(() => json(403, { detail: 'Access denied', code: 'permission_denied' }));
    const error = await apiError(api.get('items/'));
    expect(error).toMatchObject({ status: 403, code: 'permission_denied', message: 'Access denied' });
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({ kind: 'error', title: 'Error', message: 'Access denied' });
  });

  it('shows a plain-string body under the title Error', async () => {
    const { api, deps } = setup(
      () => new Response('Disk full', { status: 500, headers: { 'Content-Type': 'text/plain' } }),
    );
    const error = await apiError(api.get('items/'));
    expect(error.status).toBe(500);
    expect(error.message).toBe('Disk full');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({ kind: 'error', title: 'Error', message: 'Disk full' });
  });

  it('hands field errors to the form without a toast', async () => {
    const { api, deps } = setup(() => json(400, { name: ['Required'] }));
    const error = await apiError(api.post('items/', { name: '' }));
    expect(error.status).toBe(400);
    expect(error.fields).toEqual({ name: ['Required'] });
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('silent suppresses the error toast', async () => {
    const { api, deps } = setup(() => json(409, { detail: 'Conflict', code: 'conflict' }));
    const error = await apiError(api.get('items/', { silent: true }));
    expect(error.code).toBe('conflict');
    expect(deps.notify).not.toHaveBeenCalled();
  });
});

describe('successful bodies', () => {
  it('shows a detail as an info toast', async () => {
    const { api, deps } = setup(() => json(200, { detail: 'Code sended' }));
    await expect(api.post('otp/')).resolves.toEqual({ detail: 'Code sended' });
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({ kind: 'info', title: 'Info', message: 'Code sended' });
  });

  it('shows a message as a success toast', async () => {
    const { api, deps } = setup(() => json(200, { message: 'Password changed' }));
    await api.post('password/');
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({
      kind: 'success',
      title: 'Succes',
      message: 'Password changed',
    });
  });

  it('silent suppresses the success toast', async () => {
    const { api, deps } = setup(() => json(200, { message: 'Password changed' }));
    await api.post('password/', undefined, { silent: true });
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('answers undefined for 204', async () => {
    const { api, deps } = setup(() => new Response(null, { status: 204 }));
    await expect(api.delete('items/1/')).resolves.toBeUndefined();
    expect(deps.notify).not.toHaveBeenCalled();
  });
});

describe('requests', () => {
  it('send Accept-Language and the bearer token', async () => {
    const { api, calls } = setup(() => json(200, {}), { language: 'ru' });
    await api.get('items/');
    const headers = headersOf(calls[0]!.init);
    expect(headers.get('Accept-Language')).toBe('ru');
    expect(headers.get('Authorization')).toBe('Bearer a1');
    expect(headers.get('Content-Type')).toBeNull();
    expect(calls[0]!.init.method).toBe('GET');
  });

  it('send no bearer when signed out or anonymous', async () => {
    const signedOut = setup(() => json(200, {}), { tokens: null, language: 'en' });
    await signedOut.api.get('items/');
    expect(headersOf(signedOut.calls[0]!.init).get('Authorization')).toBeNull();
    expect(headersOf(signedOut.calls[0]!.init).get('Accept-Language')).toBe('en');

    const anonymous = setup(() => json(200, {}));
    await anonymous.api.post('token/', { username: 'u' }, { anonymous: true });
    expect(headersOf(anonymous.calls[0]!.init).get('Authorization')).toBeNull();
  });

  it('send a JSON body as application/json', async () => {
    const { api, calls } = setup(() => json(201, { id: 7 }));
    await expect(api.patch('/items/7/', { name: 'New' })).resolves.toEqual({ id: 7 });
    expect(calls[0]!.url).toBe('/api/items/7/');
    expect(calls[0]!.init.method).toBe('PATCH');
    expect(headersOf(calls[0]!.init).get('Content-Type')).toBe('application/json');
    expect(calls[0]!.init.body).toBe('{"name":"New"}');
  });

  it('upload FormData without a Content-Type, so the browser sets the boundary', async () => {
    const { api, calls } = setup(() => json(200, {}));
    const file = new Blob(['png'], { type: 'image/png' });
    await api.upload('avatar/', { avatar: file }, { note: 'hi' });
    const { init } = calls[0]!;
    expect(init.method).toBe('POST');
    expect(init.body).toBeInstanceOf(FormData);
    const form = init.body as FormData;
    expect(form.get('note')).toBe('hi');
    expect(form.get('avatar')).toBeInstanceOf(Blob);
    expect(headersOf(init).get('Content-Type')).toBeNull();
    expect(headersOf(init).get('Authorization')).toBe('Bearer a1');
  });

  it('build query strings without undefined or null and with repeated arrays', async () => {
    const { api, calls } = setup(() => json(200, []));
    await api.get('tasks/', {
      query: { status: 'done', page: 2, overdue: false, a: undefined, b: null, id: [1, 2], q: 'x y' },
    });
    expect(calls[0]!.url).toBe('/api/tasks/?status=done&page=2&overdue=false&id=1&id=2&q=x+y');
  });

  it('add no question mark for an empty query', async () => {
    const { api, calls } = setup(() => json(200, []));
    await api.get('tasks/', { query: { a: undefined } });
    expect(calls[0]!.url).toBe('/api/tasks/');
  });
});

describe('refresh()', () => {
  it('rotates the tokens ahead of expiry and shares a refresh in flight with a 401 retry', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { api, calls, tokens } = setup(async (url, init) => {
      if (isRefresh(url)) {
        await gate;
        return json(200, { access: 'a2', refresh: 'r2' });
      }
      return headersOf(init).get('Authorization') === 'Bearer a2'
        ? json(200, { ok: true })
        : json(401, { code: 'token_not_valid' });
    });

    const proactive = api.refresh();
    const request = api.get('items/');
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();

    await expect(proactive).resolves.toBe('ok');
    await expect(request).resolves.toEqual({ ok: true });
    expect(calls.filter((c) => isRefresh(c.url))).toHaveLength(1);
    expect(tokens.value).toEqual({ access: 'a2', refresh: 'r2' });
  });

  it('logs out when the refresh token is refused', async () => {
    const { api, deps, tokens } = setup(() => json(401, { code: 'token_not_valid' }));
    await expect(api.refresh()).resolves.toBe('expired');
    expect(tokens.value).toBeNull();
    expect(deps.onLogout).toHaveBeenCalledOnce();
  });

  it('keeps the session on a network failure and does nothing when signed out', async () => {
    const failing = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(failing.api.refresh()).resolves.toBe('failed');
    expect(failing.tokens.value).toEqual({ access: 'a1', refresh: 'r1' });
    expect(failing.deps.onLogout).not.toHaveBeenCalled();

    const signedOut = setup(() => json(200, {}), { tokens: null });
    await expect(signedOut.api.refresh()).resolves.toBe('expired');
    expect(signedOut.calls).toHaveLength(0);
    expect(signedOut.deps.onLogout).not.toHaveBeenCalled();
  });

  it('under a lock, takes the pair another tab rotated instead of spending the old refresh token', async () => {
    const { api, deps, calls, tokens } = setup(() => json(200, { access: 'a3', refresh: 'r3' }));
    const locked = createApiClient({
      ...deps,
      lock: async (run) => {
        tokens.value = { access: 'a2', refresh: 'r2' }; // the other tab finished first
        return run();
      },
    });
    await expect(locked.refresh()).resolves.toBe('ok');
    expect(calls).toHaveLength(0);
    expect(tokens.value).toEqual({ access: 'a2', refresh: 'r2' });
    await expect(api.refresh()).resolves.toBe('ok');
    expect(calls).toHaveLength(1);
  });
});

describe('the build an answer names', () => {
  it('is passed on for every answer that names one, failures included, and not otherwise', async () => {
    const named = (status: number, build: string) =>
      new Response(JSON.stringify({}), {
        status,
        headers: { 'Content-Type': 'application/json', [BuildHeader]: build },
      });
    const answers = [named(200, '/assets/index-a.js'), named(404, '/assets/index-b.js'), json(200, {})];
    const { deps } = setup(() => answers.shift()!);
    const onBuild = vi.fn<(build: string) => void>();
    const client = createApiClient({ ...deps, onBuild });
    await client.get('units/');
    await apiError(client.get('units/9/'));
    await client.get('units/');
    expect(onBuild.mock.calls).toEqual([['/assets/index-a.js'], ['/assets/index-b.js']]);
  });
});

/**
 * Each transport outcome, silent call or not: whether the person was told (one toast or screen at
 * most) and whether `shownByTransport` says so, so that no caller adds a second toast or stays
 * silent (issue 32, item 5).
 */
describe('who tells the person: each outcome once', () => {
  const outcomes: { name: string; handler: THandler; toasts: number; shown: boolean; silentToasts: number }[] = [
    {
      name: 'network error',
      handler: () => Promise.reject(new TypeError('Failed to fetch')),
      toasts: 1,
      shown: true,
      silentToasts: 1,
    },
    { name: '502', handler: () => json(502, {}), toasts: 1, shown: true, silentToasts: 1 },
    { name: '503 unavailable', handler: () => json(503, {}), toasts: 1, shown: true, silentToasts: 1 },
    {
      name: '503 server_busy',
      handler: () => json(503, { detail: 'Busy: try again in 2 s.', code: 'server_busy' }),
      toasts: 1,
      shown: true,
      silentToasts: 1,
    },
    { name: '504', handler: () => json(504, {}), toasts: 1, shown: true, silentToasts: 1 },
    {
      name: '503 maintenance',
      handler: () => json(503, { detail: 'Sorry', code: 'maintenance' }),
      toasts: 0,
      shown: true,
      silentToasts: 0,
    },
    {
      name: '403 with a detail',
      handler: () => json(403, { detail: 'No', code: 'permission_denied' }),
      toasts: 1,
      shown: true,
      silentToasts: 0,
    },
    {
      name: '400 field errors',
      handler: () => json(400, { name: ['Required'] }),
      toasts: 0,
      shown: false,
      silentToasts: 0,
    },
  ];

  it.each(outcomes)('$name', async ({ handler, toasts, shown, silentToasts }) => {
    const loud = setup(handler);
    const loudError = await apiError(loud.api.post('items/', {}));
    expect(loud.deps.notify).toHaveBeenCalledTimes(toasts);
    const silent = setup(handler);
    const silentError = await apiError(silent.api.post('items/', {}, { silent: true }));
    expect(silent.deps.notify).toHaveBeenCalledTimes(silentToasts);
    expect(shownByTransport(loudError)).toBe(shown);
    expect(shownByTransport(silentError)).toBe(silentToasts > 0 || silentError.code === 'maintenance');
  });

  it('a silent call the server is too busy for says when to try again', async () => {
    const { api, deps } = setup(() => json(503, { detail: 'Busy: try again in 2 s.', code: 'server_busy' }));
    const error = await apiError(api.get('items/', { silent: true }));
    expect(error).toMatchObject({ status: 503, code: 'server_busy', message: 'Busy: try again in 2 s.' });
    expect(deps.notify).toHaveBeenCalledExactlyOnceWith({
      kind: 'warning',
      title: 'Error',
      message: 'Busy: try again in 2 s.',
    });
    expect(deps.onPageError).not.toHaveBeenCalledWith(expect.stringContaining('Unavailable'));
  });
});
