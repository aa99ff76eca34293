import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, lazy, renderAt, sent, serve, setupAppHarness } from '../../../../test/app-harness';

setupAppHarness();

const session = (id: number, current: boolean) => ({
  id,
  created_at: '2026-11-20T10:00:00Z',
  last_used_at: '2026-11-27T10:00:00Z',
  user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0',
  ip: '192.0.2.7',
  current,
});

describe('the sessions section', () => {
  it('signs out everywhere else in one click, and says how many sessions ended', async () => {
    let sessions = [session(1, true), session(2, false), session(3, false)];
    serve('member', ({ method, url }) => {
      if (method === 'GET' && url === '/api/users/me/sessions/') return json(200, sessions);
      if (method === 'POST' && url === '/api/users/me/sessions/end_others/') {
        sessions = sessions.filter((s) => s.current);
        return json(200, { ended: 2 });
      }
      return undefined;
    });
    renderAt('/app/profile');
    fireEvent.click(await screen.findByTestId('profile-sessions-end-others', {}, lazy));
    expect(await screen.findByText('2 sessions ended', {}, lazy)).toBeInTheDocument();
    expect(sent('POST', '/api/users/me/sessions/end_others/')).toHaveLength(1);
    await waitFor(() => expect(screen.getAllByTestId('profile-session')).toHaveLength(1), lazy);
    // With no other session left, the button goes.
    expect(screen.queryByTestId('profile-sessions-end-others')).toBeNull();
  }, 60_000);
});
