import { readFile, writeFile } from 'node:fs/promises';
import { registerUser } from './support/accounts';
import { oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * CSV round trip (issue 15, docs/integrations.md): a lead exports a pipeline's units from the matrix,
 * edits the file as a spreadsheet would, sees the dry run refuse a bad version line by line, and
 * imports the good one; the matrix shows the new units.
 */
test('export the matrix as CSV, edit it, check and import it back', async ({ browser, baseURL, request }, testInfo) => {
  const lead = await registerUser(request, { firstName: 'Lena' });
  const team = await teamWorkspace(request, lead, [], 'CSV studio');
  const { pipeline } = await oneStagePipeline(request, lead, team.project, {}, ['Shot 010', 'Shot "020", wide']);

  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/projects/${team.project}/units?pipeline=${pipeline}`);
  await expect(page.getByTestId('matrix-row')).toHaveCount(2);

  const download = page.waitForEvent('download');
  await page.getByTestId('units-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Shots.csv');
  const exported = await readFile(await file.path(), 'utf8');
  expect(exported.startsWith('\uFEFFid,name,description,Layout: status,Layout: assignees,Layout: due\r\n')).toBe(true);
  expect(exported).toContain('"Shot ""020"", wide"');

  // Renamed in a "spreadsheet": the same file, new names, so the import makes new units.
  const edited = exported.replaceAll('Shot 010', 'Shot 110').replaceAll('Shot ""020""', 'Shot ""120""');
  const good = testInfo.outputPath('shots.csv');
  await writeFile(good, edited);
  const bad = testInfo.outputPath('bad.csv');
  await writeFile(bad, 'name,Layout: due\r\nShot 300,tomorrow\r\n');

  await page.getByTestId('units-import-open').click();
  const dialog = page.getByTestId('units-import-dialog');
  await dialog.locator('input[type=file]').setInputFiles(bad);
  await dialog.getByTestId('units-import-check').click();
  const errors = dialog.getByTestId('units-import-errors');
  await expect(errors).toContainText('Layout: due');
  await expect(errors).toContainText('“tomorrow” is not a date');
  await expect(dialog.getByTestId('units-import-submit')).toBeDisabled();

  await dialog.locator('input[type=file]').setInputFiles(good);
  await expect(dialog.getByTestId('units-import-preview')).toContainText('Shot 110');
  await dialog.getByTestId('units-import-check').click();
  await expect(dialog.getByTestId('units-import-ok')).toContainText('2 units will be created');
  await snap(page, 'units-import-dialog-checked');
  await dialog.getByTestId('units-import-submit').click();
  await expect(dialog).toHaveCount(0);

  await expect(page.getByTestId('matrix-row')).toHaveCount(4);
  await expect(page.getByTestId('matrix-unit-link').filter({ hasText: 'Shot 110' })).toBeVisible();
  await expect(page.getByTestId('matrix-unit-link').filter({ hasText: 'Shot "120", wide' })).toBeVisible();
});
