import { registerUser, uniqueName } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/** The pipeline screen's unit and task view (`?unit=`, `?task=`), reached from the matrix and My work. */

test('a unit opened on its pipeline: stages painted by status, a task acted on in the side panel', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Pia' });
  const team = await teamWorkspace(request, lead, [], uniqueName('Focus'));
  const unitName = uniqueName('Bridge');
  const flow = await oneStagePipeline(
    request,
    lead,
    team.project,
    { default_assignees: [lead.id], default_reviewers: [lead.id] },
    [unitName],
  );
  const task = flow.tasks[0]!;
  await call(request, lead, 'POST', `tasks/${task}/start/`);

  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/projects/${team.project}/units`);
  await page.getByTestId('matrix-unit-pipeline').click();
  await expect(page).toHaveURL(new RegExp(`/pipelines/${flow.pipeline}\\?unit=\\d+$`));
  const drawer = page.getByTestId('pipeline-focus-unit');
  await expect(drawer.getByTestId('pipeline-focus-stage')).toHaveCount(1);
  await expect(drawer.getByTestId('pipeline-focus-stage')).toContainText('Layout');
  await expect(page.locator('.react-flow__node.unit-status-in_progress')).toHaveCount(1);
  await expect(page.getByRole('dialog')).toContainText(unitName);
  await snap(page, 'pipeline-focus-unit');

  // The task in the panel has the task screen's actions: submitting it repaints its stage.
  await drawer.getByTestId('pipeline-focus-open-task').click();
  await expect(page).toHaveURL(new RegExp(`task=${task}`));
  const panel = page.getByTestId('pipeline-focus-task');
  await expect(panel.getByTestId('task-status')).toHaveAttribute('data-status', 'in_progress');
  await panel.getByTestId('task-submit').click();
  await expect(panel.getByTestId('task-status')).toHaveAttribute('data-status', 'review');
  await expect(page.locator('.react-flow__node.unit-status-review')).toHaveCount(1);
  await snap(page, 'pipeline-focus-task');

  // Back to the unit; My work's pipeline link opens the same view for a task.
  await panel.getByTestId('pipeline-focus-back').click();
  await expect(page.getByTestId('pipeline-focus-unit')).toBeVisible();
  await page.goto('/app');
  await page.getByTestId('my-work-on-pipeline').first().click();
  await expect(page).toHaveURL(new RegExp(`/pipelines/${flow.pipeline}\\?task=${task}$`));
  await expect(page.getByTestId('pipeline-focus-task')).toBeVisible();
});
