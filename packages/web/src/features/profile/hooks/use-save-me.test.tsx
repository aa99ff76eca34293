import { fireEvent, screen } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, lazy, renderAt, sent, serve, setupAppHarness } from '../../../../test/app-harness';

setupAppHarness();

beforeEach(() => {
  notifications.clean();
  notifications.cleanQueue();
});

/** Picks an option of one of the profile's selects. */
async function choose(testId: string, option: string) {
  fireEvent.click(await screen.findByTestId(testId, {}, lazy));
  // The dropdown is still in its opening transition, which hides it from the accessibility tree.
  fireEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

describe('profile settings without a form of their own', () => {
  it('a refused time zone says the server’s reason, not only "Data was not saved"', async () => {
    // The browser knows a zone this server's database does not: the API names the field.
    serve('member', ({ method, url }) =>
      method === 'PATCH' && url === '/api/users/1/'
        ? json(400, { time_zone: ['Choose a time zone from the list.'] })
        : undefined,
    );
    renderAt('/app/profile');
    await choose('profile-time-zone', 'Europe/Berlin');
    expect(await screen.findByText('Choose a time zone from the list.')).toBeInTheDocument();
    expect(screen.getByText('Data was not saved')).toBeInTheDocument();
    expect(sent('PATCH', '/api/users/1/')).toEqual([
      { method: 'PATCH', url: '/api/users/1/', body: { time_zone: 'Europe/Berlin' } },
    ]);
  });

  it('a refusal with a detail shows the detail', async () => {
    serve('member', ({ method, url }) =>
      method === 'PATCH' && url === '/api/users/1/'
        ? json(400, { detail: 'The e-mail digest is off on this server.', code: 'bad_request' })
        : undefined,
    );
    renderAt('/app/profile');
    await choose('profile-email-frequency', 'Weekly');
    expect(await screen.findByText('The e-mail digest is off on this server.')).toBeInTheDocument();
  });

  it('a language change says "saved" in the new language, title and body alike', async () => {
    serve('member');
    renderAt('/app/profile');
    await choose('profile-language', 'Русский');
    expect(await screen.findByText('Сохранено', {}, lazy)).toBeInTheDocument();
    expect(screen.getByText('Успешно')).toBeInTheDocument();
    expect(screen.queryByText('Saved')).not.toBeInTheDocument();
  }, 60_000);
});
