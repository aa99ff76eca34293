import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerUser, signInAs, uniqueName } from './support/accounts';
import { teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * The integration surface a pipeline TD scripts against (docs/integrations.md): a personal API token
 * made in the profile and used by a script, here `fetch` outside the app.
 */
test.describe('personal API tokens', () => {
  test('create a read token, use it with fetch, see it used, revoke it', async ({ page, request, baseURL }) => {
    const user = await registerUser(request);
    await signInAs(page, user);
    await page.goto('/app/profile');
    const section = page.getByTestId('profile-api-tokens');
    await expect(section.getByText('No tokens yet.')).toBeVisible();

    await section.getByTestId('api-token-name').fill('Render farm');
    await section.getByTestId('api-token-create').click();
    const token = (await section.getByTestId('api-token-secret-value').textContent())!;
    expect(token).toMatch(/^stl_/);
    await snap(page, 'profile-api-token-created');

    // A script, outside the browser: reads as the user, is refused a write.
    const me = await fetch(`${baseURL}/api/users/me/`, { headers: { Authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { username: string }).username).toBe(user.username);
    const write = await fetch(`${baseURL}/api/workspaces/`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'From a script' }),
    });
    expect(write.status).toBe(403);

    // Done hides the secret for good; the list says it was used.
    await section.getByRole('button', { name: 'Done' }).click();
    await expect(section.getByTestId('api-token-secret-value')).toHaveCount(0);
    await page.reload();
    const row = page.getByTestId('api-token');
    await expect(row).toContainText('Render farm');
    await expect(row).toContainText('Read only');
    await expect(row).toContainText('last used');

    await row.getByTestId('api-token-revoke').click();
    await expect(page.getByTestId('api-token')).toHaveCount(0);
    const after = await fetch(`${baseURL}/api/users/me/`, { headers: { Authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
  });
});

test.describe('webhooks', () => {
  test('an admin adds a webhook, pings it, and sees the signed delivery in its log', async ({ page, request }) => {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    try {
      const owner = await registerUser(request);
      const { workspace } = await teamWorkspace(request, owner, [], uniqueName('Hooks'));
      await signInAs(page, owner);
      await page.goto(`/app/workspaces/${workspace}/settings/integrations`);
      const section = page.getByTestId('workspace-webhooks');
      await section.getByTestId('webhook-url').fill(url);
      await section.getByTestId('webhook-event-unit.created').check();
      await section.getByTestId('webhook-add').click();
      const secret = (await section.getByTestId('webhook-secret-value').textContent())!;
      expect(secret).toMatch(/^whsec_/);
      await expect(section.getByTestId('webhook-url-text')).toHaveText(url);

      await section.getByTestId('webhook-ping').click();
      await expect.poll(() => received.length).toBe(1);
      const [ping] = received;
      expect(JSON.parse(ping!.body)).toMatchObject({ event: 'ping', workspace });
      // Standard Webhooks: v1,<base64 HMAC-SHA256 of "id.timestamp.body" keyed with the secret's bytes>.
      const signed = `${String(ping!.headers['webhook-id'])}.${String(ping!.headers['webhook-timestamp'])}.${ping!.body}`;
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      const signature = `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
      expect(ping!.headers['webhook-signature']).toBe(signature);

      await section.getByTestId('webhook-deliveries').click();
      const delivery = page.getByTestId('webhook-delivery').first();
      await expect(delivery.getByTestId('webhook-delivery-status')).toHaveText('Delivered');
      await expect(delivery).toContainText('HTTP 200');
      await snap(page, 'workspace-webhook-deliveries');
      await page.keyboard.press('Escape');

      // Rotating the secret: the new one is shown once, and for the overlap both sign each delivery.
      await section.getByTestId('webhook-rotate').click();
      await expect(section.getByTestId('webhook-secret')).toContainText('New signing secret');
      const rotated = (await section.getByTestId('webhook-secret-value').textContent())!;
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await expect(section.getByTestId('webhook-previous-secret')).toBeVisible();
      await section.getByTestId('webhook-ping').click();
      await expect.poll(() => received.length).toBe(2);
      const second = received[1]!;
      const signedBy = (s: string) => {
        const message = `${String(second.headers['webhook-id'])}.${String(second.headers['webhook-timestamp'])}.${second.body}`;
        const bytes = Buffer.from(s.replace(/^whsec_/, ''), 'base64');
        return `v1,${createHmac('sha256', bytes).update(message).digest('base64')}`;
      };
      expect(String(second.headers['webhook-signature']).split(' ')).toEqual([signedBy(rotated), signedBy(secret)]);
    } finally {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
