import type { Page } from '@playwright/test';
import { registerUser } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * Teams and review rules (docs/review-rules.md): a lead creates a team in settings and makes it the
 * reviewer of a stage with 2 required approvals (the UI is the subject); the artist, who is the
 * assignee (and, by the stage's defaults, also a reviewer), is refused when accepting their own
 * work; the two team members accept and the task is Done. People and the pipeline are set up
 * through the API.
 */

const status = (page: Page) => page.getByTestId('task-status');

async function accept(page: Page) {
  await page.getByTestId('task-accept').click();
  await page.getByTestId('accept-confirm').click();
}

test('a team reviews with "2 approvals": no self-review, two members accept, the task is Done', async ({
  browser,
  baseURL,
  request,
}) => {
  const [lead, kira, oleg, artist] = await Promise.all(
    ['Lena', 'Kira', 'Oleg', 'Artem'].map((firstName) => registerUser(request, { firstName })),
  );
  const team = await teamWorkspace(request, lead!, [kira!, oleg!, artist!], 'Teams studio');
  const flow = await oneStagePipeline(
    request,
    lead!,
    team.project,
    { review_mode: 'each_immediate', default_assignees: [artist!.id], default_reviewers: [artist!.id] },
    ['Shot 1'],
  );
  const task = flow.tasks[0]!;

  // Settings → Teams: create "Lighting leads" and add Kira and Oleg.
  const a = await openAs(browser, baseURL, lead!, team.workspace);
  await a.goto(`/app/workspaces/${team.workspace}/settings/teams`);
  await a.getByTestId('team-name').fill('Lighting leads');
  await a.getByTestId('team-create').click();
  const row = a.locator('[data-testid="team-row"][data-team-name="Lighting leads"]');
  await expect(row).toBeVisible();
  for (const name of ['Kira', 'Oleg']) {
    await row.getByTestId('team-add-member').click();
    await a.getByRole('option', { name, exact: true }).click();
    await expect(row.getByTestId('team-member').filter({ hasText: name })).toBeVisible();
  }
  await snap(a, 'teams-settings-en-light');

  // The stage's review rules: the team reviews, 2 approvals needed.
  await a.goto(`/app/projects/${team.project}/pipelines/${flow.pipeline}/edit_flow`);
  await a.locator(`[data-testid="flow-node"][data-kind="stage"]`).dblclick();
  const rules = a.getByTestId('stage-rules');
  await rules.getByTestId('stage-rules-default_reviewer_teams').click();
  await a.getByRole('option', { name: 'Lighting leads' }).click();
  await rules.getByTestId('stage-rules-required').fill('2');
  // One Save for the drawer's settings and rules (decision 201).
  await expect(rules.getByTestId('stage-rules-save')).toHaveCount(0);
  await a.getByTestId('stage-settings-save').click();
  await expect(a.getByTestId('stage-settings-drawer')).toBeHidden();

  // The artist submits: they are among the stage's reviewers, but their own work is not theirs to
  // review — no Accept, and the reason (the API refuses it with the same message: teams.test.ts).
  await call(request, artist!, 'POST', `tasks/${task}/start/`);
  await call(request, artist!, 'POST', `tasks/${task}/submit/`);
  const b = await openAs(browser, baseURL, artist!, team.workspace);
  await b.goto(`/app/tasks/${task}`);
  await expect(b.getByTestId('task-rule-progress')).toHaveText('Approvals: total 0/2');
  await expect(b.getByTestId('task-self-review')).toHaveText(
    'You are an assignee of this task: you cannot review your own work.',
  );
  await expect(b.getByTestId('task-accept')).toHaveCount(0);
  await expect(status(b)).toHaveAttribute('data-status', 'review');

  // Kira and Oleg accept: the second acceptance completes the rule, the task is Done.
  for (const [i, member] of [kira!, oleg!].entries()) {
    const page = await openAs(browser, baseURL, member, team.workspace);
    await page.goto(`/app/tasks/${task}`);
    await expect(page.getByTestId('task-teams').getByTestId('team-badge')).toHaveText('Lighting leads');
    await accept(page);
    await expect(page.getByTestId('task-rule-progress')).toHaveText(`Approvals: total ${i + 1}/2`);
    await expect(status(page)).toHaveAttribute('data-status', i === 0 ? 'review' : 'done');
    if (i === 1) await snap(page, 'task-team-review-done-en-light');
    await page.context().close();
  }
  await b.reload();
  await expect(status(b)).toHaveAttribute('data-status', 'done');
  await a.context().close();
  await b.context().close();
});
