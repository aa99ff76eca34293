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
