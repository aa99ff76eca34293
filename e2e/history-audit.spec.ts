import { readFile } from 'node:fs/promises';
import { registerUser, uniqueName } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * History and audit (issue 35, items 2 and 3; docs/history-and-audit.md): a Member changes a unit
 * and another viewer's timeline shows it live; the Admin finds their own sign-in and a CSV export
 * in the workspace's audit log and downloads the log as CSV.
 */

test('a Member renames a unit: the lead’s open timeline shows it without a reload', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Vera' });
  const artist = await registerUser(request, { firstName: 'Oleg' });
  const team = await teamWorkspace(request, lead, [artist], uniqueName('History'));
  const flow = await oneStagePipeline(request, lead, team.project, {}, ['Harbour 010']);
  const task = await call<{ unit: { id: number } }>(request, lead, 'GET', `tasks/${flow.tasks[0]}/`);
  const unitUrl = `/app/projects/${team.project}/units/${task.unit.id}`;

  const viewer = await openAs(browser, baseURL, lead, team.workspace);
  await viewer.goto(unitUrl);
  const timeline = viewer.getByTestId('history-timeline');
  await expect(timeline.getByTestId('history-empty')).toBeVisible();

  const member = await openAs(browser, baseURL, artist, team.workspace);
  await member.goto(`${unitUrl}/edit`);
  await member.getByTestId('unit-edit-name').fill('Harbour 020');
  await member.getByTestId('unit-edit-submit').click();
  await expect(member.getByTestId('unit-name')).toHaveText('Harbour 020');

  // Live: the lead's page was not reloaded.
  const entry = timeline.getByTestId('history-entry').filter({ hasText: 'Harbour 020' });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('Name');
  await expect(entry).toContainText('Harbour 010');
  await expect(entry).toContainText('Oleg');

  // "Only status" hides it; a status change on the task shows there, named by its stage.
  await call(request, artist, 'POST', `tasks/${flow.tasks[0]}/start/`);
  await expect(timeline.getByTestId('history-entry').filter({ hasText: 'Work in progress' })).toHaveCount(1);
  await timeline.getByTestId('history-filter').getByText('Only status').click();
  await expect(timeline.getByTestId('history-entry')).toHaveCount(1);
  await expect(timeline.getByTestId('history-entry').first()).toHaveAttribute('data-field', 'status');
  await snap(viewer, 'unit-history');

  // The task's own History tab.
  await viewer.goto(`/app/tasks/${flow.tasks[0]}?tab=changes`);
  await expect(viewer.getByTestId('history-entry').filter({ hasText: 'Work in progress' })).toHaveCount(1);
});

test('the Admin finds their sign-in and a CSV export in the audit log, and downloads it as CSV', async ({
  browser,
  baseURL,
  request,
}) => {
  const owner = await registerUser(request, { firstName: 'Nina' });
  const admin = await registerUser(request, { firstName: 'Ada' });
  const team = await teamWorkspace(request, owner, [admin], uniqueName('Audit'));
  const members = await call<{ user_id: number | null }[]>(
    request,
    owner,
    'GET',
    `workspaces/${team.workspace}/users/`,
  );
  expect(members.some((m) => m.user_id === admin.id)).toBe(true);
  await call(request, owner, 'POST', `workspaces/${team.workspace}/set_roles/`, { users: [admin.id], role: 'admin' });
  const { pipeline } = await oneStagePipeline(request, owner, team.project, {}, ['Shot 010']);

  // The Admin signs in through the sign-in page (a member of the workspace by now, so it is recorded).
  const page = await (await browser.newContext({ baseURL })).newPage();
  await page.goto('/login');
  await page.getByTestId('login-username').fill(admin.username);
  await page.getByTestId('login-password').fill(admin.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/app/);
  await page.evaluate((id) => localStorage.setItem('current_workspace', String(id)), team.workspace);

  // … exports the matrix as CSV …
  await page.goto(`/app/projects/${team.project}/units?pipeline=${pipeline}`);
  await expect(page.getByTestId('matrix-row')).toHaveCount(1);
  const exported = page.waitForEvent('download');
  await page.getByTestId('units-export').click();
  await exported;

  // … and finds both in the audit log, with the browser that made them.
  await page.goto(`/app/workspaces/${team.workspace}/settings/audit-log`);
  const log = page.getByTestId('audit-log-section');
  await expect(log).toBeVisible();
  const signIn = log.getByTestId('audit-entry').filter({ hasText: 'Signed in' }).filter({ hasText: admin.username });
  await expect(signIn.first()).toBeVisible();
  await expect(signIn.first()).toContainText('Mozilla');
  const csv = log.getByTestId('audit-entry').and(page.locator('[data-action="export.csv"]'));
  await expect(csv).toHaveCount(1);
  await expect(csv).toContainText(admin.username);

  // Filtered to exports by the action filter.
  await log.getByTestId('audit-filter-action').click();
  await page.getByRole('option', { name: 'Exported CSV' }).click();
  await expect(log.getByTestId('audit-entry')).toHaveCount(1);
  await snap(page, 'audit-log');

  // The whole log as CSV (the filters start empty again).
  await page.reload();
  await expect(log.getByTestId('audit-entry').first()).toBeVisible();
  const download = page.waitForEvent('download');
  await log.getByTestId('audit-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('audit-log.csv');
  const text = await readFile(await file.path(), 'utf8');
  expect(text.startsWith('\uFEFFid,at,action,actor,target,target_id,target_name,address,user_agent,details\r\n')).toBe(
    true,
  );
  expect(text).toContain(`auth.sign_in,${admin.username}`);
  expect(text).toContain(`export.csv,${admin.username}`);

  // A Member sees no such tab.
  const other = await registerUser(request);
  const link = await call<{ token: string }>(request, owner, 'POST', `workspaces/${team.workspace}/link/`, {
    role: 'member',
  });
  await call(request, other, 'POST', `invites/${link.token}/accept/`);
  const memberPage = await openAs(browser, baseURL, other, team.workspace);
  await memberPage.goto(`/app/workspaces/${team.workspace}/settings`);
  await expect(memberPage.getByTestId('workspace-settings-tabs')).toBeVisible();
  await expect(memberPage.getByTestId('workspace-settings-tab-audit-log')).toHaveCount(0);
});
