import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { paths } from '@stageline/shared';
import { Providers } from '../providers';
import { routes } from './routes';
import { queryClient } from '../../shared/api/query-client';
import { i18n, initI18n } from '../../shared/i18n';
import { useShellStore } from '../../shared/lib/shell-store';

/** Screens are lazy chunks: the first transform of a chunk can take longer than the default 1 s. */
const lazy = { timeout: 10_000 };

type TCall = { method: string; url: string; body: unknown; auth: string | null };
let calls: TCall[];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A fake API: the unsubscribe call answers `answer`, everything else 404. */
function serve(answer: (token: string) => Response) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as { token: string }) : undefined;
      const headers = new Headers(init.headers);
      calls.push({ method: init.method ?? 'GET', url, body, auth: headers.get('authorization') });
      if (url === '/api/users/unsubscribe/' && init.method === 'POST') return answer(body!.token);
      return json(404, { detail: 'Not found.', code: 'not_found' });
    }),
  );
}

function renderAt(path: string) {
  render(
    <Providers>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />
    </Providers>,
  );
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

describe('/unsubscribe/:token', () => {
  it('posts the token once, without a session, and says digests are off', async () => {
    serve(() => json(200, { detail: 'You are unsubscribed from e-mail digests.' }));
    renderAt(paths.unsubscribe('a.b.c'));
    expect(await screen.findByTestId('unsubscribe-done', {}, lazy)).toHaveTextContent(
      'Stageline will not e-mail you digests any more.',
    );
    const posts = calls.filter((c) => c.url === '/api/users/unsubscribe/');
    expect(posts).toEqual([{ method: 'POST', url: '/api/users/unsubscribe/', body: { token: 'a.b.c' }, auth: null }]);
    expect(screen.getByTestId('unsubscribe-profile')).toHaveAttribute('href', paths.app.profile());
  });

  it('says a bad or expired link is invalid, in Russian too', async () => {
    await i18n.changeLanguage('ru');
    serve(() => json(400, { detail: 'Ссылка для отписки неверна или устарела.', code: 'invalid_token' }));
    renderAt(paths.unsubscribe('tampered'));
    const alert = await screen.findByTestId('unsubscribe-invalid', {}, lazy);
    expect(alert).toHaveTextContent('Ссылка для отписки неверна или устарела.');
    expect(alert).toHaveTextContent('Сводки также можно отключить в настройках e-mail вашего профиля.');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Отписка от сводок по e-mail');
  });
});
