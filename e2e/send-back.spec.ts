import { registerUser } from './support/accounts';
import { call, openAs, twoInputsPipeline } from './support/api';
import { expect, test } from './support/fixtures';

/**
 * Issue 32, item 6: a reviewer sends a task back to both of its predecessor stages. Both go to Edit,
 * the task itself back to its start, and a teammate watching the predecessors sees them change live.
 */
test('a reviewer sends a task back to its two predecessors; a watcher sees both change live', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000);
  const lead = await registerUser(request, { firstName: 'Lena' });
  const artist = await registerUser(request, { firstName: 'Artem' });
  const workspace = await call<{ id: number }>(request, lead, 'POST', 'workspaces/', { name: 'Two inputs' });
  const link = await call<{ token: string }>(request, lead, 'POST', `workspaces/${workspace.id}/link/`, {
    role: 'member',
  });
  await call(request, artist, 'POST', `invites/${link.token}/accept/`);
  const project = await call<{ id: number }>(request, lead, 'POST', 'projects/', {
    workspace: workspace.id,
    name: 'Ep2',
  });
  const { pipeline: pipelineId, stages } = await twoInputsPipeline(request, lead, project.id, {
    default_reviewers: [lead.id],
  });
  await call(request, lead, 'POST', 'units/batch/', {
    project: project.id,
    pipeline: pipelineId,
    template: 'Shot {count}',
    count: 1,
    start: 10,
    step: 10,
  });
  const list = await call<{ results: { id: number; stage: { id: number } }[] }>(
    request,
    lead,
    'GET',
    `tasks/?pipeline=${pipelineId}&limit=100`,
  );
  const taskAt = (stageId: number) => list.results.find((t) => t.stage.id === stageId)!.id;
  const [model, rig, anim] = [taskAt(stages.model), taskAt(stages.rig), taskAt(stages.anim)];
  for (const id of [model, rig]) await call(request, lead, 'PATCH', `tasks/${id}/`, { status: 'done' });
  await call(request, lead, 'POST', `tasks/${anim}/start/`);
  await call(request, lead, 'POST', `tasks/${anim}/submit/`);

  // The artist watches Model and Rig in two tabs of one browser context.
  const watchModel = await openAs(browser, baseURL, artist, workspace.id);
  const watchRig = await watchModel.context().newPage();
  await watchModel.goto(`/app/tasks/${model}`);
  await watchRig.goto(`/app/tasks/${rig}`);
  for (const page of [watchModel, watchRig])
    await expect(page.getByTestId('task-status')).toHaveAttribute('data-status', 'done');

  const reviewer = await openAs(browser, baseURL, lead, workspace.id);
  await reviewer.goto(`/app/tasks/${anim}`);
  await expect(reviewer.getByTestId('task-status')).toHaveAttribute('data-status', 'review');
  await reviewer.getByTestId('task-reject').click();
  await reviewer.getByTestId('reject-comment').fill('Both inputs need another pass.');
  await reviewer.getByTestId(`reject-return-${stages.model}`).check();
  await reviewer.getByTestId(`reject-return-${stages.rig}`).check();
  await reviewer.getByTestId('reject-confirm').click();
  await expect(reviewer.getByTestId('task-status')).toHaveAttribute('data-status', 'todo');
  await expect(reviewer.getByTestId('task-round-outcome')).toContainText('Model');
  await expect(reviewer.getByTestId('task-round-outcome')).toContainText('Rig');

  // Live, without a reload: both predecessors are in Edit for the watcher.
  for (const page of [watchModel, watchRig])
    await expect(page.getByTestId('task-status')).toHaveAttribute('data-status', 'edit');
  for (const id of [model, rig]) {
    const task = await call<{ status: string }>(request, lead, 'GET', `tasks/${id}/`);
    expect(task.status).toBe('edit');
  }
  await reviewer.context().close();
  await watchModel.context().close();
});
