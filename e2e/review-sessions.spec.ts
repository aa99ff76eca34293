import type { APIRequestContext } from '@playwright/test';
import { registerUser, uniqueName, type TestUser } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * Review sessions and client links (docs/review-sessions.md): a supervisor builds a session from
 * "Lighting in Review", decides on an item and shares the session; a client without an account
 * approves one item and asks for changes on another; the team's task screens show those decisions.
 */

/** A 64 × 36 PNG of one colour: enough for the server to detect the type and make a thumbnail. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAEAAAAAkCAIAAAC2bqvFAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAaElEQVRYhe2SQQkAQRDDKqdKTmekrof7hIFCBKSh6cdpoht0A9ArdhfiLtENugHoFbsLcZfoBt0A9IrdhbhLdINuAHrF7kLcJbpBNwC9Ynch7hLdoBuAXrG7EHeJbtANQK/YXQg95G8eS4F+iFxpL7kAAAAASUVORK5CYII=',
  'base64',
);

async function render(request: APIRequestContext, user: TestUser, task: number, name: string) {
  const response = await request.fetch('/api/attachments/', {
    method: 'POST',
    headers: { Authorization: `Bearer ${user.access}` },
    multipart: { task: String(task), file: { name, mimeType: 'image/png', buffer: png } },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test('a supervisor reviews a stage as a session and shares it; a client decides without an account', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Vera' });
  const artist = await registerUser(request, { firstName: 'Oleg' });
  const team = await teamWorkspace(request, lead, [artist], uniqueName('Dailies'));
  const flow = await oneStagePipeline(
    request,
    lead,
    team.project,
    { name: 'Lighting', default_assignees: [artist.id], default_reviewers: [lead.id] },
    ['Shot 010', 'Shot 020', 'Shot 030'],
  );
  for (const [i, task] of flow.tasks.entries()) {
    await call(request, artist, 'POST', `tasks/${task}/start/`);
    await render(request, artist, task, `light_v1_${i + 1}.png`);
    await call(request, artist, 'POST', `tasks/${task}/submit/`);
  }

  // The supervisor builds the session from the stage in Review.
  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/projects/${team.project}`);
  await page.getByTestId('project-reviews-open').click();
  await page.getByTestId('review-new-name').fill('Lighting dailies');
  await page.getByTestId('review-new-stage').click();
  await page.getByRole('option', { name: /Lighting \(3\)/ }).click();
  await page.getByTestId('review-new-create').click();
  await expect(page.getByTestId('review-session-name')).toHaveText('Lighting dailies');
  const items = page.getByTestId('review-item');
  await expect(items).toHaveCount(3);
  await expect(page.getByTestId('review-current-title')).toHaveText('Shot 010 · Lighting');
  await expect(page.getByTestId('review-image')).toBeVisible();
  // The next item's files are already loading.
  await expect(page.getByTestId('review-preload').locator('img')).toHaveCount(1);
  // → and ← move between items.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('review-current-title')).toHaveText('Shot 020 · Lighting');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('review-current-title')).toHaveText('Shot 010 · Lighting');

  // Accept the first item and let it leave the session.
  await page.getByRole('checkbox', { name: 'Take it out of the session after deciding' }).check();
  await page.getByTestId('review-accept').click();
  await expect(items).toHaveCount(2);
  await expect(page.getByTestId('review-current-title')).toHaveText('Shot 020 · Lighting');
  // A drawing on the current image goes with a comment, with its PNG as the comment's file.
  await page.getByTestId('draw-toggle').click();
  const layer = page.getByTestId('drawing-layer');
  const box = (await layer.boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.3);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height * 0.6, { steps: 5 });
  await page.mouse.up();
  await expect(layer).toHaveAttribute('data-shapes', '1');
  await page.getByTestId('draw-note').fill('Softer key light here');
  await page.getByTestId('draw-send').click();
  await expect(page.getByTestId('drawing-saved')).toHaveCount(1);
  await expect(page.getByText('Softer key light here')).toBeVisible();
  const files = await call<{ results: { name: string; comment: number | null }[] }>(
    request,
    lead,
    'GET',
    `attachments/?task=${flow.tasks[1]}`,
  );
  expect(files.results.filter((f) => f.comment !== null).map((f) => f.name)).toEqual(['drawing.png']);
  await snap(page, 'review-session');

  // Share it with a client: may comment and decide.
  await page.getByTestId('review-share-open').click();
  await page.getByTestId('review-link-create').click();
  const url = await page.getByTestId('review-link-created-value').textContent();
  expect(url).toMatch(/\/review\/[\w-]+$/);
  await expect(page.getByTestId('review-link-row')).toHaveCount(1);

  // A fresh browser without an account opens the link.
  const client = await (await browser.newContext({ baseURL })).newPage();
  await client.goto(new URL(url!).pathname);
  await expect(client.getByTestId('client-review-title')).toHaveText('Lighting dailies');
  const clientItems = client.getByTestId('client-review-item');
  await expect(clientItems).toHaveCount(2);
  await expect(client.locator('body')).not.toContainText('Oleg');
  await expect(client.locator('body')).not.toContainText('Vera');
  await client.getByTestId('client-review-name').fill('Dana from the studio');
  await client.getByTestId('client-review-approve').click();
  await expect(client.getByTestId('client-review-decided')).toHaveText('You approved this item.');
  await clientItems.nth(1).click();
  await client.getByTestId('client-review-text').fill('The sky needs to be warmer.');
  await client.getByTestId('client-review-changes').click();
  await expect(client.getByTestId('client-review-decided')).toHaveText('You asked for changes on this item.');
  await snap(client, 'review-client');
  await client.setViewportSize({ width: 400, height: 800 });
  expect(await client.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(400);
  await snap(client, 'review-client-narrow');

  // The team's task screens show the client's decisions.
  const [, second, third] = flow.tasks;
  await page.goto(`/app/tasks/${second}`);
  const approved = page.getByTestId('client-feedback-entry');
  await expect(approved).toHaveCount(1);
  await expect(approved).toHaveAttribute('data-kind', 'approve');
  await expect(approved).toContainText('Dana from the studio');
  await page.goto(`/app/tasks/${third}`);
  const changes = page.getByTestId('client-feedback-entry');
  await expect(changes).toHaveAttribute('data-kind', 'changes');
  await expect(changes).toContainText('The sky needs to be warmer.');
});
