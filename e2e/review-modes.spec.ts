import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { registerUser, type TestUser } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * The review modes of docs/rules.md §Tasks through the task screen (the reactions are the subject, so they
 * go through the UI; the data they need is set up through the API), and My work with the pipeline
 * counters following a task from submission to acceptance.
 */

const status = (page: Page) => page.getByTestId('task-status');

async function react(page: Page, verdict: 'accept' | 'reject', comment?: string) {
  await page.getByTestId(`task-${verdict}`).click();
  if (comment) await page.getByTestId(`${verdict}-comment`).fill(comment);
  await page.getByTestId(`${verdict}-confirm`).click();
  await expect(page.getByTestId(`${verdict}-dialog`)).toBeHidden();
}

/**
 * A studio of two: Lena the lead (owner) and Artem the artist, a one-stage pipeline with `units`
 * and the stage settings `stage` gives, and each of them signed in in a browser context of their own.
 */
async function studio(
  { browser, baseURL, request }: { browser: Browser; baseURL: string | undefined; request: APIRequestContext },
  name: string,
  stage: (people: { lead: TestUser; artist: TestUser }) => Record<string, unknown>,
  units: string[],
) {
  const lead = await registerUser(request, { firstName: 'Lena' });
  const artist = await registerUser(request, { firstName: 'Artem' });
  const team = await teamWorkspace(request, lead, [artist], name);
  const flow = await oneStagePipeline(request, lead, team.project, stage({ lead, artist }), units);
  const a = await openAs(browser, baseURL, lead, team.workspace);
  const b = await openAs(browser, baseURL, artist, team.workspace);
  return { lead, artist, team, flow, a, b };
}

test('each reviewer, wait: a rejection waits for every reaction, goes to Edit; resubmitted, Done needs both', async ({
  browser,
  baseURL,
  request,
}) => {
  const { lead, flow, a, b } = await studio(
    { browser, baseURL, request },
    'Wait studio',
    ({ lead, artist }) => ({ review_mode: 'each_wait', default_reviewers: [lead.id, artist.id] }),
    ['Shot 1'],
  );
  const task = flow.tasks[0]!;
  await call(request, lead, 'POST', `tasks/${task}/start/`);
  await call(request, lead, 'POST', `tasks/${task}/submit/`);
  await a.goto(`/app/tasks/${task}`);
  await expect(status(a)).toHaveAttribute('data-status', 'review');
  await react(a, 'reject', 'The horizon is tilted.');
  // The first rejection does not close the round: the other reviewer has not reacted yet.
  await expect(a.getByTestId('task-rejected-by')).toContainText('Lena');
  await expect(a.getByTestId('task-reacted')).toBeVisible();
  await expect(a.getByTestId('task-accept')).toBeHidden();
  await expect(status(a)).toHaveAttribute('data-status', 'review');
  // My work: the task no longer awaits the lead, who has reacted, but still awaits the artist.
  await a.goto('/app');
  await expect(a.getByTestId('my-work-review-count')).toHaveText('0');
  await b.goto('/app');
  await expect(b.getByTestId('my-work-review-count')).toHaveText('1');
  await b.getByTestId('my-work-review').locator(`[data-task-id="${task}"] [data-testid="my-work-task-link"]`).click();

  await expect(status(b)).toHaveAttribute('data-status', 'review');
  await expect(b.getByTestId('task-rejected-by')).toContainText('Lena');
  await b.getByTestId('task-accept').click();
  await expect(b.getByTestId('accept-dialog')).toContainText('A reviewer has already rejected: the task goes to Edit.');
  await b.getByTestId('accept-confirm').click();
  // Every reviewer has reacted and one rejected: Edit.
  await expect(status(b)).toHaveAttribute('data-status', 'edit');
  await snap(b, 'task-each-wait-closed-en-light');

  await a.goto(`/app/tasks/${task}`);
  await expect(status(a)).toHaveAttribute('data-status', 'edit');
  await expect(a.getByTestId('task-round-outcome')).toHaveText('Round 1 closed: returned to Edit');

  // Resubmitted: a new round, where Done needs both acceptances, the first one waits.
  await a.getByTestId('task-submit').click();
  await expect(status(a)).toHaveAttribute('data-status', 'review');
  await react(a, 'accept');
  await expect(a.getByTestId('task-accepted-by')).toContainText('Lena');
  await expect(status(a)).toHaveAttribute('data-status', 'review');
  await b.goto(`/app/tasks/${task}`);
  await react(b, 'accept');
  await expect(status(b)).toHaveAttribute('data-status', 'done');
  await expect(b.getByTestId('task-round-outcome')).toHaveText('Round 2 closed: accepted');
  await a.context().close();
  await b.context().close();
});

test('any reviewer: the first reaction decides, accept → Done, reject → Edit, resubmit → Done', async ({
  browser,
  baseURL,
  request,
}) => {
  const { lead, flow, a, b } = await studio(
    { browser, baseURL, request },
    'Any studio',
    ({ lead, artist }) => ({ review_mode: 'any', default_reviewers: [lead.id, artist.id] }),
    ['Shot 1', 'Shot 2'],
  );
  const [first, second] = flow.tasks as [number, number];
  for (const task of flow.tasks) {
    await call(request, lead, 'POST', `tasks/${task}/start/`);
    await call(request, lead, 'POST', `tasks/${task}/submit/`);
  }

  // One acceptance of two reviewers is enough.
  await b.goto(`/app/tasks/${first}`);
  await b.getByTestId('task-accept').click();
  await expect(b.getByTestId('accept-dialog')).toContainText(
    'Your acceptance completes the review: the task becomes Done.',
  );
  await b.getByTestId('accept-confirm').click();
  await expect(status(b)).toHaveAttribute('data-status', 'done');
  await expect(b.getByTestId('task-round-outcome')).toHaveText('Round 1 closed: accepted');
  await a.goto(`/app/tasks/${first}`);
  await expect(status(a)).toHaveAttribute('data-status', 'done');
  await expect(a.getByTestId('task-accept')).toBeHidden();

  // One rejection of two reviewers is enough too.
  await a.goto(`/app/tasks/${second}`);
  await react(a, 'reject');
  await expect(status(a)).toHaveAttribute('data-status', 'edit');
  await b.goto(`/app/tasks/${second}`);
  await expect(status(b)).toHaveAttribute('data-status', 'edit');
  await expect(b.getByTestId('task-reject')).toBeHidden();

  // Resubmitted after the edit: again the first reaction decides.
  await b.getByTestId('task-submit').click();
  await expect(status(b)).toHaveAttribute('data-status', 'review');
  await react(b, 'accept');
  await expect(status(b)).toHaveAttribute('data-status', 'done');
  await expect(b.getByTestId('task-round-outcome')).toHaveText('Round 2 closed: accepted');
  await a.context().close();
  await b.context().close();
});

test('My work and the pipeline counters follow a task from submission to acceptance', async ({
  browser,
  baseURL,
  request,
}) => {
  const { team, flow, a, b } = await studio(
    { browser, baseURL, request },
    'Counting studio',
    ({ lead, artist }) => ({ review_mode: 'any', default_assignees: [artist.id], default_reviewers: [lead.id] }),
    ['Shot 1', 'Shot 2'],
  );
  const [first] = flow.tasks as [number, number];

  const counter = (page: Page, status: string) => page.getByTestId(`pipeline-counter-${status}`);

  // Before: both tasks wait for the artist; nothing awaits the lead.
  await b.goto('/app');
  await expect(b.getByTestId('my-work-ready-count')).toHaveText('2');
  await a.goto('/app');
  await expect(a.getByTestId('my-work-review-count')).toHaveText('0');
  await expect(a.getByTestId('my-work-review-empty')).toBeVisible();
  await a.goto(`/app/projects/${team.project}/pipelines`);
  await expect(counter(a, 'todo')).toContainText('2');
  await expect(counter(a, 'review')).toHaveCount(0);

  // The artist opens the task from My work, starts and submits it.
  await b.goto('/app');
  await b.getByTestId('my-work-ready').locator(`[data-task-id="${first}"] [data-testid="my-work-task-link"]`).click();
  await expect(b).toHaveURL(new RegExp(`/app/tasks/${first}`));
  await b.getByTestId('task-start').click();
  await expect(status(b)).toHaveAttribute('data-status', 'in_progress');
  await b.getByTestId('task-submit').click();
  await expect(status(b)).toHaveAttribute('data-status', 'review');

  // Now it awaits the lead, and the artist has one task left to work on; the counters moved from
  // To do to Review.
  await b.goto('/app');
  await expect(b.getByTestId('my-work-ready-count')).toHaveText('1');
  await a.goto('/app');
  await expect(a.getByTestId('my-work-review-count')).toHaveText('1');
  await a.goto(`/app/projects/${team.project}/pipelines`);
  await expect(counter(a, 'todo')).toContainText('1');
  await expect(counter(a, 'review')).toContainText('1');

  // The lead accepts from My work; it leaves the review section and counts as Done.
  await a.goto('/app');
  await a.getByTestId('my-work-review').locator(`[data-task-id="${first}"] [data-testid="my-work-task-link"]`).click();
  await expect(a).toHaveURL(new RegExp(`/app/tasks/${first}`));
  await react(a, 'accept');
  await expect(status(a)).toHaveAttribute('data-status', 'done');
  await a.goto('/app');
  await expect(a.getByTestId('my-work-review-count')).toHaveText('0');
  await a.goto(`/app/projects/${team.project}/pipelines`);
  await expect(counter(a, 'done')).toContainText('1');
  await expect(counter(a, 'todo')).toContainText('1');
  await expect(counter(a, 'review')).toHaveCount(0);
  await a.context().close();
  await b.context().close();
});
