import { render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { paths } from '@stageline/shared';
import { json, lazy, me, sent, serve, setupAppHarness } from '../../../test/app-harness';
import { queryClient } from '../../shared/api/query-client';
import { Providers } from '../providers';
import { routes } from './routes';

setupAppHarness();

const confirmUrl = '/api/users/me/email/confirm/';

/** The confirm call succeeds once; the link is spent afterwards, as on the server. */
function serveSingleUseLink() {
  let used = false;
  serve('owner', ({ method, url }) => {
    if (method !== 'POST' || url !== confirmUrl) return undefined;
    if (used) return json(200, { detail: 'This e-mail change is already confirmed.', status: 'already_confirmed' });
    used = true;
    return json(200, { detail: 'E-mail changed', status: 'changed' });
  });
}

/** As main.tsx renders the app: strict mode runs every effect twice in development. */
function renderStrictAt(path: string) {
  render(
    <StrictMode>
      <Providers>
        <RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />
      </Providers>
    </StrictMode>,
  );
}

describe('/change_email', () => {
  it('confirms the link once and keeps saying so, however often the page refetches', async () => {
    serveSingleUseLink();
    renderStrictAt(`${paths.changeEmail()}?token=abc`);
    expect(await screen.findByTestId('change-email-done', {}, lazy)).toHaveTextContent('E-mail changed');
    // The profile refetches after the change, and a live-events reset refetches everything.
    await waitFor(() => expect(sent('GET', '/api/users/me/').length).toBeGreaterThan(1));
    await queryClient.invalidateQueries();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByTestId('change-email-done')).toBeInTheDocument();
    expect(screen.queryByTestId('change-email-invalid')).toBeNull();
    expect(sent('POST', confirmUrl)).toEqual([{ method: 'POST', url: confirmUrl, body: { token: 'abc' } }]);
  });

  it('says a link opened again is already confirmed, not invalid', async () => {
    serve('owner', ({ method, url }) =>
      method === 'POST' && url === confirmUrl
        ? json(200, { detail: 'This e-mail change is already confirmed.', status: 'already_confirmed' })
        : undefined,
    );
    renderStrictAt(`${paths.changeEmail()}?token=opened-before`);
    expect(await screen.findByTestId('change-email-already', {}, lazy)).toHaveTextContent('E-mail already confirmed');
    expect(screen.queryByTestId('change-email-invalid')).toBeNull();
    expect(screen.queryByTestId('change-email-done')).toBeNull();
  });

  it('says a spent link is invalid', async () => {
    serve('owner', ({ method, url }) =>
      method === 'POST' && url === confirmUrl
        ? json(400, { detail: 'Invalid token', code: 'invalid_token' })
        : undefined,
    );
    renderStrictAt(`${paths.changeEmail()}?token=spent`);
    expect(await screen.findByTestId('change-email-invalid', {}, lazy)).toHaveTextContent('Invalid token');
    expect(screen.queryByTestId('change-email-done')).toBeNull();
    expect(me.email).toBe('ada@example.com');
  });
});
