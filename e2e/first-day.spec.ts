import { registerUser } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * Issue 39's day-one journeys on the task screen: the reason a task came back is on Details
 * (decision 190), and a comment being written survives leaving the task (decision 191).
 */

test('a rejection with its comment shows on the task’s Details for the artist', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Lena' });
  const artist = await registerUser(request, { firstName: 'Artem' });
  const team = await teamWorkspace(request, lead, [artist], 'Decision studio');
  const flow = await oneStagePipeline(
    request,
    lead,
    team.project,
    {
      review_mode: 'any',
      accept_edit_as_done: false,
      default_assignees: [artist.id],
      default_reviewers: [lead.id],
    },
    ['SH010'],
  );
  const task = flow.tasks[0]!;
  await call(request, artist, 'POST', `tasks/${task}/start/`);
  await call(request, artist, 'POST', `tasks/${task}/submit/`);

  const a = await openAs(browser, baseURL, lead, team.workspace);
  await a.goto(`/app/tasks/${task}`);
  await a.getByTestId('task-reject').click();
  await a.getByTestId('reject-comment').fill('The horizon is tilted.\nFix the key light too.');
  await a.getByTestId('reject-confirm').click();
  await expect(a.getByTestId('reject-dialog')).toBeHidden();
  await expect(a.getByTestId('task-status')).toHaveAttribute('data-status', 'edit');

  const b = await openAs(browser, baseURL, artist, team.workspace);
  await b.goto(`/app/tasks/${task}`);
  // Details is the tab the task opens on: the decision and its reason are there, no History needed.
  const decision = b.getByTestId('task-latest-decision');
  await expect(decision).toBeVisible();
  await expect(decision).toHaveAttribute('data-action', 'reject');
  await expect(decision).toContainText('Latest decision: rejected by Lena');
  await expect(b.getByTestId('task-latest-decision-comment')).toHaveText(
    'The horizon is tilted.\nFix the key light too.',
  );
  await snap(b, 'task-latest-decision-en-light');

  // Fixed and resubmitted, then accepted: the latest decision follows.
  await call(request, artist, 'POST', `tasks/${task}/submit/`);
  await call(request, lead, 'POST', `tasks/${task}/accept/`, { comment: 'Good now.' });
  await b.reload();
  await expect(b.getByTestId('task-latest-decision')).toHaveAttribute('data-action', 'accept');
  await expect(b.getByTestId('task-latest-decision-comment')).toHaveText('Good now.');
});

test('a comment draft survives leaving the task, goes on send; a long comment folds', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Lena' });
  const team = await teamWorkspace(request, lead, [], 'Draft studio');
  const flow = await oneStagePipeline(request, lead, team.project, {}, ['SH010', 'SH020']);
  const [first, second] = flow.tasks as [number, number];
  const long = Array.from({ length: 400 }, (_, i) => `Line ${i + 1} of the notes.`).join('\n');
  await call(request, lead, 'POST', 'comments/', { task: second, text: long });

  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/tasks/${first}`);
  const input = page.getByTestId('comment-composer-input');
  await input.fill('Half-written: the shadows need');
  // Away to another task in the app (its own draft is empty), then back.
  await page.goto(`/app/tasks/${second}`);
  await expect(input).toHaveValue('');
  // The 400-line comment shows folded; "Show more" opens it whole, "Show less" folds it again.
  const folded = page.getByTestId('comment-folded');
  await expect(folded).toHaveAttribute('data-open', 'false');
  const closedHeight = (await folded.boundingBox())!.height;
  expect(closedHeight).toBeLessThan(400);
  await page.getByTestId('comment-fold-toggle').click();
  await expect(folded).toHaveAttribute('data-open', 'true');
  await expect(page.getByText('Line 400 of the notes.')).toBeVisible();
  expect((await folded.boundingBox())!.height).toBeGreaterThan(closedHeight * 5);
  await expect(page.getByTestId('comment-fold-toggle')).toHaveText('Show less');

  await page.goBack();
  await expect(page.getByTestId('comment-composer-input')).toHaveValue('Half-written: the shadows need');
  await page.reload();
  await expect(input).toHaveValue('Half-written: the shadows need');
  await input.fill('The shadows need softening.');
  await page.getByTestId('comment-composer-submit').click();
  await expect(page.getByTestId('comment').filter({ hasText: 'The shadows need softening.' })).toBeVisible();
  await expect(input).toHaveValue('');
  await page.reload();
  await expect(page.getByTestId('comments-list')).toContainText('The shadows need softening.');
  await expect(input).toHaveValue('');
});

test('the invite box: a long entry wraps, the invalid ones are named, the valid one is invited; no 404 logged', async ({
  browser,
  baseURL,
  request,
}) => {
  const owner = await registerUser(request, { firstName: 'Olga' });
  const friend = await registerUser(request, { firstName: 'Boris' });
  const workspace = await call<{ id: number }>(request, owner, 'POST', 'workspaces/', { name: 'Invite studio' });
  const page = await openAs(browser, baseURL, owner, workspace.id);
  const logged: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') logged.push(message.text());
  });
  page.on('response', (response) => {
    if (response.url().includes('/api/') && response.status() >= 400)
      logged.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(`/app/workspaces/${workspace.id}/settings/people`);
  await expect(page.getByTestId('link-generate')).toBeVisible();

  const long = `${'a-very-long-address-'.repeat(20)}@example.com`;
  const input = page.getByTestId('invite-users-input');
  for (const entry of [long, 'nobody_here_at_all', friend.username]) {
    await input.fill(entry);
    await input.press('Enter');
  }
  // The long pill wraps inside the card instead of running past it.
  const section = await page.getByTestId('workspace-invite-section').boundingBox();
  const box = await input.locator('xpath=ancestor::*[contains(@class,"mantine-TagsInput-root")][1]').boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(section!.x + section!.width + 1);
  await snap(page, 'invite-box-long-entry-en-light');

  await page.getByTestId('invite-submit').click();
  await expect(page.locator(`[data-testid="team-row"][data-username="${friend.username}"]`)).toHaveAttribute(
    'data-status',
    'pending',
  );
  const report = page.getByTestId('invite-report');
  await expect(report).toContainText('1 invited; 2 users not invited');
  const entries = page.getByTestId('invite-report-entry');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText('Not a username or an e-mail: too long.');
  await expect(entries.nth(0)).toContainText('a-very-long-address-');
  await expect(entries.nth(1)).toContainText('nobody_here_at_all');
  // The refused entries stay in the box to be corrected; the invited one left it.
  await expect(page.getByTestId('workspace-invite-section')).not.toContainText(friend.username);
  await snap(page, 'invite-report-en-light');
  expect(logged).toEqual([]);
});

test('allowed file types: an Admin narrows them in settings; a program is refused naming its type', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Lena' });
  const team = await teamWorkspace(request, lead, [], 'Files studio');
  const flow = await oneStagePipeline(request, lead, team.project, {}, ['SH010']);
  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/workspaces/${team.workspace}/settings`);
  const section = page.getByTestId('workspace-file-types-section');
  await expect(page.getByTestId('file-types-media')).toBeChecked();
  await expect(page.getByTestId('file-types-documents')).toBeChecked();
  await expect(page.getByTestId('file-types-archives')).toBeChecked();
  await expect(page.getByTestId('file-types-other')).not.toBeChecked();
  await page.getByTestId('file-types-archives').uncheck();
  await page.getByTestId('file-types-save').click();
  await expect(page.getByTestId('file-types-save')).toBeDisabled();
  await snap(page, 'settings-file-types-en-light');
  await page.reload();
  await expect(page.getByTestId('file-types-archives')).not.toBeChecked();
  await expect(section).toBeVisible();

  await page.goto(`/app/tasks/${flow.tasks[0]}`);
  await page.getByTestId('files-input').setInputFiles([
    { name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ just a test program') },
    { name: 'plates.zip', mimeType: 'application/zip', buffer: Buffer.from('PK\x03\x04 not much inside') },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Key light from the left.') },
  ]);
  const errors = page.getByTestId('upload-error');
  await expect(errors).toHaveCount(2);
  await expect(errors.filter({ hasText: 'Files of type .exe are not allowed in this workspace' })).toHaveCount(1);
  await expect(errors.filter({ hasText: 'Files of type .zip are not allowed in this workspace' })).toHaveCount(1);
  // The allowed one is stored and shown once.
  await expect(page.getByTestId('files-panel').getByTestId('attachment')).toHaveCount(1);
  await expect(page.getByTestId('files-panel')).toContainText('notes.txt');
  await snap(page, 'task-upload-refused-en-light');
});
