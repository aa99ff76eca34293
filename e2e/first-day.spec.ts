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
