import { fireEvent, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, lazy, me, renderAt, sent, serve, setupAppHarness } from '../../../../test/app-harness';

setupAppHarness();

// Toasts live in a store of their own: start each test with none shown or queued.
beforeEach(() => {
  notifications.clean();
  notifications.cleanQueue();
});

/** A Notification API whose permission and prompt answer the test decides. */
function stubNotifications(permission: NotificationPermission, prompt: () => Promise<NotificationPermission>) {
  class FakeNotification {
    static permission = permission;
    static requestPermission = vi.fn(prompt);
  }
  vi.stubGlobal('Notification', FakeNotification);
  return FakeNotification;
}

async function toggle() {
  fireEvent.click(await screen.findByTestId('profile-notify-browser', {}, lazy));
}

const patched = () => sent('PATCH', '/api/users/1/');

describe('browser notifications in the profile', () => {
  it('says the browser does not support them', async () => {
    vi.stubGlobal('Notification', undefined);
    serve('member');
    renderAt('/app/profile');
    await toggle();
    expect(await screen.findByText('Your browser does not support notifications')).toBeInTheDocument();
    expect(patched()).toHaveLength(0);
  });

  it('says they are blocked when the browser refuses, asked or not', async () => {
    const api = stubNotifications('default', async () => 'denied');
    serve('member');
    renderAt('/app/profile');
    await toggle();
    expect(
      await screen.findByText('You have blocked notifications (change the site settings in the browser)'),
    ).toBeInTheDocument();
    expect(api.requestPermission).toHaveBeenCalledTimes(1);
    expect(patched()).toHaveLength(0);
  });

  it('says turning them on failed when the prompt breaks', async () => {
    stubNotifications('default', () => Promise.reject(new Error('no prompt in an iframe')));
    serve('member');
    renderAt('/app/profile');
    await toggle();
    expect(await screen.findByText('Failed to turn on notifications')).toBeInTheDocument();
    expect(patched()).toHaveLength(0);
  });

  it('saves the setting once the browser allows them, and says when saving failed', async () => {
    stubNotifications('default', async () => 'granted');
    serve('member', (call) => (call.method === 'PATCH' ? json(500, { detail: 'down' }) : undefined));
    renderAt('/app/profile');
    await toggle();
    expect(await screen.findByText('Notifications was turned on, but settings was not saved')).toBeInTheDocument();
    expect(patched()[0]!.body).toEqual({ notify_browser: true });
  });

  it('saves the setting when allowed', async () => {
    stubNotifications('granted', async () => 'granted');
    serve('member', (call) => (call.method === 'PATCH' ? json(200, { ...me, notify_browser: true }) : undefined));
    renderAt('/app/profile');
    await toggle();
    await waitFor(() => expect(patched()).toHaveLength(1));
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('profile-notify-browser')).toBeChecked());
  });

  it('warns when they are on for the account but blocked in this browser', async () => {
    stubNotifications('denied', async () => 'denied');
    serve('member', (call) => (call.url === '/api/users/me/' ? json(200, { ...me, notify_browser: true }) : undefined));
    renderAt('/app/profile');
    expect(await screen.findByTestId('profile-notify-browser-problem', {}, lazy)).toHaveTextContent(
      'You have blocked notifications (change the site settings in the browser)',
    );
  });
});
