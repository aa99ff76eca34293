import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../shared/api/query-client';
import { i18n, initI18n } from '../../shared/i18n';
import { useShellStore } from '../../shared/lib/shell-store';
import { Providers } from '../providers';
import { routes } from './routes';
import { servedMe } from '../../../test/served';

/** Screens are lazy chunks: the first transform of a chunk can take longer than the default 1 s. */
const lazy = { timeout: 10_000 };

type TCall = { method: string; url: string; body: unknown; authorization: string | null };
type TRoute = (call: TCall) => Response | undefined;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const me = servedMe({ language: 'ru', two_factor: true });

let calls: TCall[];

/** A fake API: `route` answers what the test is about, the rest is 404 (as for oauth/providers/). */
function serve(route: TRoute) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = {
        method: init.method ?? 'GET',
        url,
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
        authorization: new Headers(init.headers).get('Authorization'),
      };
      calls.push(call);
      return route(call) ?? json(404, { detail: 'Not found.', code: 'not_found' });
    }),
  );
}

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

async function signInWith(username: string, password: string) {
  fireEvent.change(await screen.findByTestId('login-username', {}, lazy), { target: { value: username } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: password } });
  fireEvent.click(screen.getByTestId('login-submit'));
}

function typeCode(code: string) {
  [...code].forEach((digit, index) => {
    fireEvent.change(screen.getByTestId(`otp-input-${index}`), { target: { value: digit } });
  });
}

beforeAll(async () => {
  await initI18n().changeLanguage('en');
});

beforeEach(() => {
  useShellStore.setState({ maintenance: false, fatalError: null, pageError: null, loadingLabel: null });
  queryClient.clear();
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('login screen', () => {
  it('goes through the code step when the answer is an ephemeral token, then back to next', async () => {
    serve(({ method, url, body }) => {
      if (method === 'POST' && url === '/api/users/login/') return json(200, { ephemeral_token: 'eph-1' });
      if (method === 'POST' && url === '/api/otp/check/') {
        const { code } = body as { code: string };
        return code === '123456'
          ? json(200, { access: 'a1', refresh: 'r1' })
          : json(400, { detail: 'Code is invalid, try to resend', code: 'invalid_code' });
      }
      if (url === '/api/users/me/') return json(200, me);
      return undefined;
    });
    const router = renderAt(`/login?next=${encodeURIComponent('/app/projects/5')}`);

    await signInWith('ada', 'secret-password');
    expect(await screen.findByTestId('otp-step')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/users/login/')?.body).toEqual({
      username: 'ada',
      password: 'secret-password',
    });
    expect(screen.getByTestId('otp-resend').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('otp-resend').textContent).toMatch(/Send a new code in (30|29) s/);

    typeCode('654321');
    expect(await screen.findByText('Code is invalid, try to resend')).toBeInTheDocument();
    expect(localStorage.getItem('authTokens')).toBeNull();

    typeCode('123456');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5'), lazy);
    expect(calls.filter((c) => c.url === '/api/otp/check/').at(-1)?.body).toEqual({
      code: '123456',
      ephemeral_token: 'eph-1',
    });
    expect(JSON.parse(localStorage.getItem('authTokens')!)).toEqual({ access: 'a1', refresh: 'r1' });
    // The user's language is applied at sign-in.
    expect(i18n.language).toBe('ru');
  });

  it("says 'Your email is not verified' and opens the code step with the answer's token", async () => {
    serve(({ method, url }) => {
      if (method === 'POST' && url === '/api/users/login/') {
        return json(403, {
          detail: 'Your email is not verified',
          code: 'email_not_verified',
          ephemeral_token: 'eph-2',
        });
      }
      if (method === 'POST' && url === '/api/otp/check/') return json(200, { access: 'a2', refresh: 'r2' });
      if (url === '/api/users/me/') return json(200, { ...me, language: 'en' });
      return undefined;
    });
    const router = renderAt('/login');

    await signInWith('ada@example.com', 'secret-password');
    const alert = await screen.findByTestId('login-unverified');
    expect(within(alert).getByText('Your email is not verified')).toBeInTheDocument();
    expect(screen.queryByTestId('login-error')).toBeNull();

    fireEvent.click(screen.getByTestId('login-verify-email'));
    expect(await screen.findByTestId('otp-step')).toBeInTheDocument();
    typeCode('111111');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces'), lazy);
    expect(calls.find((c) => c.url === '/api/otp/check/')?.body).toEqual({ code: '111111', ephemeral_token: 'eph-2' });
  });

  it("says 'Failed to login' for wrong credentials and validates before sending", async () => {
    serve(({ method, url }) => {
      if (method === 'POST' && url === '/api/users/login/') {
        return json(400, { detail: 'Failed to login', code: 'invalid_credentials' });
      }
      if (url === '/api/oauth/providers/') return json(200, [{ id: 'github', name: 'GitHub' }]);
      return undefined;
    });
    renderAt('/login');

    fireEvent.click(await screen.findByTestId('login-submit', {}, lazy));
    expect(await screen.findAllByText('Field can not be empty')).toHaveLength(2);
    expect(calls.some((c) => c.url === '/api/users/login/')).toBe(false);

    await signInWith('ada', 'wrong-password');
    expect((await screen.findByTestId('login-error')).textContent).toBe('Failed to login');
    expect(screen.getByTestId('oauth-github').textContent).toBe('Continue with GitHub');
    expect(localStorage.getItem('authTokens')).toBeNull();
  });

  it('past the failure limit, says what the server said and offers no resend: the code needs the password', async () => {
    const detail = 'Too many failed sign-ins. If the password was right, we e-mailed you a code to finish.';
    serve(({ method, url }) => {
      if (method === 'POST' && url === '/api/users/login/') return json(200, { ephemeral_token: 'eph-3', detail });
      if (method === 'POST' && url === '/api/otp/check/') return json(200, { access: 'a3', refresh: 'r3' });
      if (url === '/api/users/me/') return json(200, { ...me, language: 'en' });
      return undefined;
    });
    const router = renderAt('/login');

    await signInWith('ada', 'secret-password');
    expect(await screen.findByTestId('otp-step')).toBeInTheDocument();
    expect(screen.getByRole('heading').textContent).toBe('Finish signing in');
    expect(screen.getByTestId('otp-notice').textContent).toBe(detail);
    expect(screen.queryByTestId('otp-sent')).toBeNull();
    expect(screen.queryByTestId('otp-resend')).toBeNull();
    typeCode('222222');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces'), lazy);
    expect(calls.find((c) => c.url === '/api/otp/check/')?.body).toEqual({ code: '222222', ephemeral_token: 'eph-3' });
  });

  it('shows no OAuth buttons when the server has no providers call', async () => {
    serve(() => undefined);
    renderAt('/login');
    expect(await screen.findByTestId('login-form', {}, lazy)).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.url === '/api/oauth/providers/')).toBe(true));
    expect(screen.queryByTestId('oauth-buttons')).toBeNull();
  });
});

describe('register screen (docs/decisions.md, entries 155 and 159)', () => {
  const invite = '/i/tok-42';

  it('keeps next from the login screen through sign-up and the code, and lands on it', async () => {
    serve(({ method, url }) => {
      if (method === 'POST' && url === '/api/users/register/') return json(201, { ephemeral_token: 'eph-r' });
      if (method === 'POST' && url === '/api/otp/check/') return json(200, { access: 'a4', refresh: 'r4' });
      if (url === '/api/users/me/') return json(200, { ...me, language: 'en', two_factor: false });
      if (url === '/api/oauth/providers/') return json(200, [{ id: 'github', name: 'GitHub' }]);
      return undefined;
    });
    const router = renderAt(`/login?next=${encodeURIComponent(invite)}`);

    fireEvent.click(await screen.findByTestId('login-register', {}, lazy));
    await waitFor(() => expect(router.state.location.pathname).toBe('/register'), lazy);
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent(invite)}`);
    expect(await screen.findByTestId('register-form', {}, lazy)).toBeInTheDocument();
    // Signing up with a provider carries it too, and so does the way back to sign in.
    expect((await screen.findByTestId('oauth-github', {}, lazy)).getAttribute('href')).toBe(
      `/api/oauth/login/github/start/?next=${encodeURIComponent(invite)}`,
    );
    expect(screen.getByTestId('register-login').getAttribute('href')).toBe(`/login?next=${encodeURIComponent(invite)}`);

    fireEvent.change(screen.getByTestId('register-username'), { target: { value: 'bob' } });
    fireEvent.change(screen.getByTestId('register-email'), { target: { value: 'bob@example.com' } });
    fireEvent.change(screen.getByTestId('register-password'), { target: { value: 'lilac-harbor-62-candle' } });
    fireEvent.change(screen.getByTestId('register-password-confirm'), { target: { value: 'lilac-harbor-62-candle' } });
    fireEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByTestId('otp-step', {}, lazy)).toBeInTheDocument();
    typeCode('333333');
    await waitFor(() => expect(router.state.location.pathname).toBe(invite), lazy);
  }, 30_000);

  it('refuses a next that leaves the site: the quickstart opens', async () => {
    serve(({ method, url }) => {
      if (method === 'POST' && url === '/api/users/register/') return json(201, { ephemeral_token: 'eph-s' });
      if (method === 'POST' && url === '/api/otp/check/') return json(200, { access: 'a5', refresh: 'r5' });
      if (url === '/api/users/me/') return json(200, { ...me, language: 'en', two_factor: false });
      return undefined;
    });
    const router = renderAt(`/register?next=${encodeURIComponent('//evil.example/i/x')}`);
    fireEvent.change(await screen.findByTestId('register-username', {}, lazy), { target: { value: 'bob' } });
    fireEvent.change(screen.getByTestId('register-email'), { target: { value: 'bob@example.com' } });
    fireEvent.change(screen.getByTestId('register-password'), { target: { value: 'lilac-harbor-62-candle' } });
    fireEvent.change(screen.getByTestId('register-password-confirm'), { target: { value: 'lilac-harbor-62-candle' } });
    fireEvent.click(screen.getByTestId('register-submit'));
    expect(await screen.findByTestId('otp-step', {}, lazy)).toBeInTheDocument();
    typeCode('444444');
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/quickstart'), lazy);
  }, 30_000);

  it("saves the browser's time zone for an account without one, signed in", async () => {
    localStorage.setItem('authTokens', JSON.stringify({ access: 'a6', refresh: 'r6' }));
    serve(({ method, url, body }) => {
      if (url === '/api/users/me/') return json(200, { ...me, language: 'en', time_zone: null });
      if (method === 'PATCH' && url === '/api/users/1/') return json(200, { ...me, ...(body as object) });
      return undefined;
    });
    renderAt('/login');
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH')).toBe(true), lazy);
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.url).toBe('/api/users/1/');
    expect(patch.body).toEqual({ time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone });
    expect(patch.authorization).toBe('Bearer a6');
  }, 30_000);
});
