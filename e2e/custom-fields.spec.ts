import { registerUser, uniqueName } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/** Custom fields (docs/custom-fields.md): defined by an Admin, filled in, filtered and sorted on, saved as a view. */

test('an Admin adds Frames and Difficulty, fills them, filters the matrix to Hard, sorts by Frames and saves the view', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Nina' });
  const team = await teamWorkspace(request, lead, [], uniqueName('Fields'));
  await oneStagePipeline(request, lead, team.project, {}, ['Shot 010', 'Shot 020', 'Shot 030']);
  const units = await call<{ results: { id: number; name: string }[] }>(
    request,
    lead,
    'GET',
    `units/?project=${team.project}`,
  );
  const unitId = (name: string) => units.results.find((unit) => unit.name === name)!.id;

  // The Admin defines the two fields on the project's Custom fields screen.
  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/projects/${team.project}`);
  await page.getByTestId('project-fields-open').click();
  await expect(page.getByTestId('fields-empty')).toBeVisible();
  await page.getByTestId('field-create-name').fill('Frames');
  await page.getByTestId('field-create-kind').click();
  await page.getByRole('option', { name: 'Number', exact: true }).click();
  await page.getByTestId('field-create-unit').fill('fr');
  await page.getByTestId('field-create-submit').click();
  await expect(page.getByTestId('field-row')).toHaveCount(1);
  await page.getByTestId('field-create-name').fill('Difficulty');
  await page.getByTestId('field-create-kind').click();
  await page.getByRole('option', { name: 'Select', exact: true }).click();
  const options = page.getByTestId('field-create-options');
  for (const label of ['Easy', 'Hard']) {
    await options.fill(label);
    await options.press('Enter');
  }
  await page.getByTestId('field-create-submit').click();
  await expect(page.getByTestId('field-row')).toHaveCount(2);
  await expect(page.getByTestId('field-row').filter({ hasText: 'Difficulty' })).toContainText('Hard');
  await snap(page, 'custom-fields-defined');

  // Values: Shot 020 on its screen; the others through the API.
  await page.goto(`/app/projects/${team.project}/units/${unitId('Shot 020')}`);
  await page.getByTestId('field-input-frames').fill('240');
  await page.getByTestId('field-input-difficulty').click();
  await page.getByRole('option', { name: 'Hard', exact: true }).click();
  await page.getByTestId('unit-fields-save').click();
  await expect(page.getByTestId('unit-fields-save')).toBeDisabled();
  await call(request, lead, 'PATCH', `units/${unitId('Shot 010')}/`, { fields: { frames: 96, difficulty: 'easy' } });
  await call(request, lead, 'PATCH', `units/${unitId('Shot 030')}/`, { fields: { frames: 120, difficulty: 'hard' } });

  // The matrix shows the fields as columns; filter to Hard, sort by Frames.
  await page.goto(`/app/projects/${team.project}/units`);
  await expect(page.getByTestId('matrix-row')).toHaveCount(3);
  await expect(page.getByTestId('matrix-field-head')).toHaveText(['Frames', 'Difficulty']);
  await page.getByTestId('matrix-filter-field-difficulty').click();
  await page.getByRole('option', { name: 'Hard', exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/field\.difficulty=hard/);
  await expect(page.getByTestId('matrix-row')).toHaveCount(2);
  await page.getByTestId('matrix-filter-sort').click();
  await page.getByRole('option', { name: 'Frames ascending' }).click();
  await expect(page).toHaveURL(/sort=field\.frames/);
  await expect(page.getByTestId('matrix-unit-link')).toHaveText(['Shot 030', 'Shot 020']);
  await expect(page.getByTestId('matrix-field').filter({ hasText: 'fr' })).toHaveText(['120 fr', '240 fr']);
  await snap(page, 'custom-fields-matrix');

  // Saved as a view: reopening it brings the filter and the sort back.
  await page.getByTestId('views-menu').click();
  await page.getByTestId('view-save').click();
  await page.getByTestId('view-name').fill('Hard shots');
  await page.getByTestId('view-submit').click();
  await expect(page.getByTestId('views-menu')).toHaveText('Hard shots');
  await page.goto(`/app/projects/${team.project}/units`);
  await expect(page.getByTestId('matrix-row')).toHaveCount(3);
  await page.getByTestId('views-menu').click();
  await page.getByTestId('view-item').filter({ hasText: 'Hard shots' }).click();
  await expect(page.getByTestId('matrix-unit-link')).toHaveText(['Shot 030', 'Shot 020']);
});
