import type { Page } from '@playwright/test';
import { registerUser } from './support/accounts';
import { call, openAs as open, twoInputsPipeline } from './support/api';
import { expect, snap, test } from './support/fixtures';

const status = (page: Page) => page.getByTestId('task-status');

test('batch units, work a task through review by two reviewers, send a task back, My work and counters', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  const lead = await registerUser(request, { firstName: 'Lena' });
  const artist = await registerUser(request, { firstName: 'Artem' });
  const workspace = await call<{ id: number }>(request, lead, 'POST', 'workspaces/', { name: 'Review studio' });
  const link = await call<{ token: string }>(request, lead, 'POST', `workspaces/${workspace.id}/link/`, {
    role: 'member',
  });
  await call(request, artist, 'POST', `invites/${link.token}/accept/`);
  const project = await call<{ id: number }>(request, lead, 'POST', 'projects/', {
    workspace: workspace.id,
    name: 'Ep1',
  });
  const { pipeline: pipelineId, stages: stageIds } = await twoInputsPipeline(request, lead, project.id, {
    default_reviewers: [lead.id, artist.id],
    review_mode: 'each_immediate',
  });

  const a = await open(browser, baseURL, lead, workspace.id);
  const b = await open(browser, baseURL, artist, workspace.id);

  // Batch-create units with the live preview.
  await a.goto(`/app/projects/${project.id}/units/create_multiple`);
  await a.getByTestId('batch-template').fill('Shot {count}');
  await a.getByTestId('batch-count').fill('3');
  await a.getByTestId('batch-start').fill('10');
  await a.getByTestId('batch-step').fill('10');
  await expect(a.getByTestId('batch-preview')).toContainText('Shot 10');
  await expect(a.getByTestId('batch-preview')).toContainText('Shot 30');
  await a.getByTestId('batch-submit').click();
  await expect(a).toHaveURL(new RegExp(`/app/projects/${project.id}/units`));
  await expect(a.getByTestId('matrix-row')).toHaveCount(3);
  await a.goto(`/app/projects/${project.id}`);
  await expect(a.getByTestId('project-units-count')).toContainText('3');
  await a.goto(`/app/projects/${project.id}/units`);
  await expect(a.getByTestId('matrix-row')).toHaveCount(3);
  await snap(a, 'unit-matrix-en-light');

  // Open Shot 10 at Model from the matrix: start → submit → reject to Edit → resubmit → two accepts.
  const row = a.getByTestId('matrix-row').filter({ hasText: 'Shot 10' });
  await row.locator(`[data-testid="matrix-cell"][data-stage-id="${stageIds.model}"]`).click();
  await expect(a).toHaveURL(/\/app\/tasks\/\d+/);
  const modelTaskUrl = new URL(a.url()).pathname;
  await expect(status(a)).toHaveAttribute('data-status', 'todo');
  await a.getByTestId('task-start').click();
  await expect(status(a)).toHaveAttribute('data-status', 'in_progress');
  await a.getByTestId('task-submit').click();
  await expect(status(a)).toHaveAttribute('data-status', 'review');
  await a.getByTestId('task-reject').click();
  await a.getByTestId('reject-comment').fill('The silhouette reads poorly.');
  await a.getByTestId('reject-confirm').click();
  await expect(status(a)).toHaveAttribute('data-status', 'edit');
  await a.getByTestId('task-submit').click();
  await expect(status(a)).toHaveAttribute('data-status', 'review');
  await a.getByTestId('task-accept').click();
  await a.getByTestId('accept-confirm').click();
  await expect(a.getByTestId('task-accepted-by')).toBeVisible();
  await expect(status(a)).toHaveAttribute('data-status', 'review'); // each reviewer must accept
  await b.goto(modelTaskUrl);
  await b.getByTestId('task-accept').click();
  await b.getByTestId('accept-confirm').click();
  await expect(status(b)).toHaveAttribute('data-status', 'done');
  await snap(b, 'task-details-en-light');

  // Rig done too (through the API), then Animation is ready; its reviewer sends Model back.
  const unitTasks = async (name: string) => {
    const list = await call<{ results: { id: number; unit: { name: string }; stage: { id: number } }[] }>(
      request,
      lead,
      'GET',
      `tasks/?pipeline=${pipelineId}&limit=100`,
    );
    return list.results.filter((t) => t.unit.name === name);
  };
  const shot10 = await unitTasks('Shot 10');
  const taskAt = (stageId: number) => shot10.find((t) => t.stage.id === stageId)!.id;
  await call(request, lead, 'PATCH', `tasks/${taskAt(stageIds.rig)}/`, { status: 'done' });
  await call(request, lead, 'POST', `tasks/${taskAt(stageIds.anim)}/start/`);
  await call(request, lead, 'POST', `tasks/${taskAt(stageIds.anim)}/submit/`);
  await a.goto(`/app/tasks/${taskAt(stageIds.anim)}`);
  await expect(status(a)).toHaveAttribute('data-status', 'review');
  await a.getByTestId('task-reject').click();
  await a.getByTestId('reject-confirm').click();
  await expect(a.getByTestId('reject-choice-required')).toBeVisible();
  await a.getByTestId(`reject-return-${stageIds.model}`).check();
  await snap(a, 'reject-dialog-en-light');
  await a.getByTestId('reject-confirm').click();
  await expect(status(a)).not.toHaveAttribute('data-status', 'review');
  await expect(a.getByTestId('task-round-outcome')).toHaveText('Round 1 closed: sent back to Model');
  const model = await call<{ status: string }>(request, lead, 'GET', `tasks/${taskAt(stageIds.model)}/`);
  const rig = await call<{ status: string }>(request, lead, 'GET', `tasks/${taskAt(stageIds.rig)}/`);
  expect(model.status).toBe('edit');
  expect(rig.status).toBe('done');

  // My work lists the lead's tasks: ready ones to do, and ones awaiting the lead's review.
  await a.goto('/app');
  await expect(a.getByTestId('my-work-review').or(a.getByTestId('my-work-ready')).first()).toBeVisible();
  await snap(a, 'my-work-en-light');

  // The pipeline list counts tasks by status.
  await a.goto(`/app/projects/${project.id}/pipelines`);
  await expect(a.getByTestId('pipeline-counter-done')).toContainText('1');
  await expect(a.getByTestId('pipeline-counter-edit')).toContainText('1');

  await a.evaluate(() => {
    localStorage.setItem('language', 'ru');
    localStorage.setItem('theme', 'dark');
  });
  await a.goto(modelTaskUrl);
  await expect(status(a)).toHaveAttribute('data-status', 'edit');
  await snap(a, 'task-details-ru-dark');
  await a.context().close();
  await b.context().close();
});
