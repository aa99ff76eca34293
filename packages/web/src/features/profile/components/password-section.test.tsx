import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, lazy, renderAt, sent, serve, setupAppHarness } from '../../../../test/app-harness';

setupAppHarness();

/** Opens the password change (a code is asked for), types the code and the new password twice. */
async function fillChange() {
  fireEvent.click(await screen.findByTestId('profile-password-change', {}, lazy));
  await screen.findByTestId('profile-password-code-0', {}, lazy);
  for (const [index, digit] of [...'123456'].entries()) {
    fireEvent.change(screen.getByTestId(`profile-password-code-${index}`), { target: { value: digit } });
  }
  for (const field of ['profile-password-new', 'profile-password-confirm']) {
    fireEvent.change(screen.getByTestId(field), { target: { value: 'a brand new passphrase' } });
  }
}

const changes = () => sent('POST', '/api/users/me/password/');

function serveChange() {
  serve('member', (call) => {
    if (call.method === 'POST' && call.url === '/api/otp/send/') return json(200, { detail: 'Code sent' });
    if (call.method === 'POST' && call.url === '/api/users/me/password/')
      return json(200, { detail: 'Password changed' });
    return undefined;
  });
}

describe('password change in the profile', () => {
  it('keeps the API tokens unless the box is ticked', async () => {
    serveChange();
    renderAt('/app/profile');
    await fillChange();
    expect(screen.getByLabelText('Also revoke my API tokens')).not.toBeChecked();
    fireEvent.click(screen.getByTestId('profile-password-submit'));
    await waitFor(() => expect(changes()).toHaveLength(1));
    expect(changes()[0]!.body).toEqual({
      code: '123456',
      password: 'a brand new passphrase',
      revoke_api_tokens: false,
    });
  });

  it('asks the server to revoke them when it is', async () => {
    serveChange();
    renderAt('/app/profile');
    await fillChange();
    fireEvent.click(screen.getByLabelText('Also revoke my API tokens'));
    fireEvent.click(screen.getByTestId('profile-password-submit'));
    await waitFor(() => expect(changes()).toHaveLength(1));
    expect(changes()[0]!.body).toEqual({ code: '123456', password: 'a brand new passphrase', revoke_api_tokens: true });
  });
});
