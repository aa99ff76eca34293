import { fireEvent, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, lazy, renderAt, sent, serve, setupAppHarness } from '../../../test/app-harness';

setupAppHarness();

beforeEach(() => {
  notifications.clean();
  notifications.cleanQueue();
});

/** The error Mantine shows under an input, found through the input's `aria-describedby`. */
function errorOf(input: HTMLElement): string | null {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  const errors = ids.map((id) => document.getElementById(id)).filter((el) => el?.id.endsWith('-error'));
  return errors[0]?.textContent ?? null;
}

/** Types `value` and leaves the field, as a person does (Mantine clamps numbers on blur). */
function typeAndLeave(input: HTMLElement, value: string) {
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

describe('inputs keep what was typed and say what is wrong', () => {
  it('a name longer than 200 characters stays whole and gets the limit message', async () => {
    serve('member');
    renderAt('/app/projects/create');
    const name = await screen.findByTestId<HTMLInputElement>('project-create-name', {}, lazy);
    expect(name).not.toHaveAttribute('maxlength');
    expect(screen.getByTestId('project-create-description')).not.toHaveAttribute('maxlength');
    typeAndLeave(name, 'x'.repeat(300));
    fireEvent.click(screen.getByTestId('project-create-submit'));
    await waitFor(() => expect(errorOf(name)).toBe('Ensure this field has no more than 200 characters.'), lazy);
    expect(name.value).toHaveLength(300);
    expect(sent('POST', '/api/projects/')).toHaveLength(0);
  });

  it.each([
    ['batch-count', '0', 'Ensure this value is greater than or equal to 1.'],
    ['batch-count', '20000', 'Ensure this value is less than or equal to 10000.'],
    ['batch-start', '-1', 'Ensure this value is greater than or equal to 0.'],
    ['batch-step', '0', 'Ensure this value is greater than or equal to 1.'],
    ['batch-step', '1.5', 'Enter a whole number.'],
  ])('batch creation: %s = %s is kept, with its message', async (field, value, message) => {
    serve('member');
    renderAt('/app/projects/5/units/create_multiple');
    const input = await screen.findByTestId<HTMLInputElement>(field, {}, lazy);
    typeAndLeave(input, value);
    await waitFor(() => expect(errorOf(input)).toBe(message), lazy);
    expect(input.value).toBe(value);
    fireEvent.click(screen.getByTestId('batch-submit'));
    expect(sent('POST', '/api/units/batch/')).toHaveLength(0);
  });

  it('registering with empty fields says they are required, not how long they must be', async () => {
    localStorage.removeItem('authTokens');
    serve('member');
    renderAt('/register');
    fireEvent.click(await screen.findByTestId('register-submit', {}, lazy));
    for (const field of ['register-username', 'register-email', 'register-password']) {
      await waitFor(() => expect(errorOf(screen.getByTestId(field))).toBe('Field can not be empty'), lazy);
    }
    expect(screen.queryByText(/Ensure this field has at least/)).toBeNull();
    expect(sent('POST', '/api/users/register/')).toHaveLength(0);
  });

  it('an avatar the server cannot read says why', async () => {
    serve('member', ({ method, url }) =>
      method === 'POST' && url === '/api/users/me/avatar/'
        ? json(400, { detail: 'This file is not an image. Upload a PNG, JPEG or WebP image.', code: 'bad_request' })
        : undefined,
    );
    renderAt('/app/profile');
    const file = new File(['not a picture'], 'cat.png', { type: 'image/png' });
    fireEvent.change(await screen.findByTestId('profile-avatar-file', {}, lazy), { target: { files: [file] } });
    expect(
      await screen.findByText('This file is not an image. Upload a PNG, JPEG or WebP image.', {}, lazy),
    ).toBeInTheDocument();
    // The title says what failed (decision 193), not the generic "Data was not saved".
    expect(screen.getByText('The avatar was not changed')).toBeInTheDocument();
    expect(screen.queryByText('Data was not saved')).toBeNull();
  });
});
