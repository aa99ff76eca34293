import type { Page } from '@playwright/test';
import { registerUser } from './support/accounts';
import { call, oneStagePipeline, openAs as open, teamWorkspace } from './support/api';
import { expect, snap, test } from './support/fixtures';

/** Posts a comment from the composer with Ctrl+Enter and waits for it in the author's own list. */
async function post(page: Page, text: string) {
  const input = page.getByTestId('comment-composer-input');
  await input.fill(text);
  await input.press('Control+Enter');
  await expect(input).toHaveValue('');
}

/** No element a comment could smuggle in, and no link that runs script. */
async function expectInert(page: Page) {
  // The rendered texts: avatars and menu icons around them are the app's own.
  const list = page.getByTestId('comments-list').getByTestId('comment-markdown');
  await expect(list.first()).toBeVisible();
  await expect(list.locator('script, img, svg, iframe, object, embed, b, [onerror], [onload]')).toHaveCount(0);
  const hrefs = await list.locator('a').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
  for (const href of hrefs) expect(href).not.toMatch(/^\s*(javascript|data|vbscript):/i);
}

test('comments and notifications arrive live, and comment text never runs', async ({ browser, baseURL, request }) => {
  test.setTimeout(120_000);
  const alice = await registerUser(request, { firstName: 'Alice' });
  const boris = await registerUser(request, { firstName: 'Boris' });
  const { workspace, project } = await teamWorkspace(request, alice, [boris], 'Live studio');
  const { tasks } = await oneStagePipeline(request, alice, project, {}, ['Shot 1']);
  const taskPath = `/app/tasks/${tasks[0]}`;

  const a = await open(browser, baseURL, alice, workspace);
  const b = await open(browser, baseURL, boris, workspace);
  const dialogs: string[] = [];
  for (const page of [a, b])
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

  await b.goto(taskPath);
  await expect(b.getByTestId('comments-empty')).toBeVisible();
  await expect(b.getByTestId('notifications-badge')).toHaveCount(0);
  // A marker that a reload would wipe: the comment must come without one.
  await b.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

  await a.goto(taskPath);
  await expect(a.getByTestId('comments-empty')).toBeVisible();
  const input = a.getByTestId('comment-composer-input');
  await input.fill('Please check the timing, @' + boris.username.slice(0, 8));
  const option = a.getByTestId('mention-option').filter({ hasText: `@${boris.username}` });
  await expect(option).toBeVisible();
  await input.press('Enter');
  await expect(input).toHaveValue(`Please check the timing, @${boris.username} `);
  await input.pressSequentially('**thanks**');
  await input.press('Control+Enter');
  await expect(input).toHaveValue('');

  const bList = b.getByTestId('comments-list');
  await expect(bList.getByTestId('comment')).toHaveCount(1);
  await expect(bList).toContainText('Please check the timing');
  await expect(bList.locator(`[data-mention="${boris.username}"]`)).toHaveText(`@${boris.username}`);
  await expect(bList.locator('strong')).toHaveText('thanks');
  await expect(b.getByTestId('notifications-badge')).toHaveText('1');
  await expect(b.getByTestId('notifications-bell')).toHaveAccessibleName('Notifications: 1 unread');
  expect(await b.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

  // Classic payloads, posted through the composer, are text on both screens.
  const payloads = [
    '<script>alert("script")</script>',
    '<img src=x onerror="alert(\'img\')">',
    '[click me](javascript:alert(1))',
    '<svg onload="alert(\'svg\')"></svg>',
    '<iframe src="javascript:alert(2)"></iframe><b>raw html</b>',
  ];
  for (const text of payloads) await post(a, text);
  await expect(a.getByTestId('comments-list').getByTestId('comment')).toHaveCount(1 + payloads.length);
  await expect(bList.getByTestId('comment')).toHaveCount(1 + payloads.length);
  await expect(bList).toContainText('<script>alert("script")</script>');
  await expect(bList).toContainText('<img src=x onerror="alert(\'img\')">');
  await expect(bList).toContainText('<b>raw html</b>');
  await expect(bList.getByRole('link', { name: 'click me' })).toBeVisible();
  await expectInert(a);
  await expectInert(b);
  // The notification, before any reload of the task: opening the task reads what was said about it
  // (issue 39, item 13). Open the screen, see it unread, open it (marks it read), the badge clears.
  await b.getByTestId('notifications-bell').click();
  await expect(b).toHaveURL(/\/app\/notifications$/);
  const item = b.getByTestId('notification').first();
  await expect(item.getByTestId('notification-text')).toHaveText(/Alice mentioned you in Shot 1 · Layout/);
  await expect(item.getByTestId('notification-unread-dot')).toBeVisible();
  await snap(b, 'notifications-en-light');
  await item.getByTestId('notification-toggle').click();
  await expect(item.getByTestId('notification-unread-dot')).toHaveCount(0);
  await expect(b.getByTestId('notifications-badge')).toHaveCount(0);
  await item.getByTestId('notification-toggle').click();
  await expect(b.getByTestId('notifications-badge')).toHaveText('1');
  await item.getByTestId('notification-open').click();
  await expect(b).toHaveURL(new RegExp(`${taskPath}$`));
  await expect(b.getByTestId('notifications-badge')).toHaveCount(0);

  await b.reload();
  await expect(bList.getByTestId('comment')).toHaveCount(1 + payloads.length);
  await expectInert(b);
  await b.waitForTimeout(500); // an onerror or onload would have fired by now
  expect(dialogs).toEqual([]);

  await snap(b, 'comments-panel-en-light');

  // Both screens in the dark theme.
  await b.evaluate(() => localStorage.setItem('theme', 'dark'));
  await b.reload();
  await expect(b.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(bList.getByTestId('comment')).toHaveCount(1 + payloads.length);
  await snap(b, 'comments-panel-en-dark');
  await b.goto('/app/notifications');
  await expect(b.getByTestId('notification')).toHaveCount(1);
  await snap(b, 'notifications-en-dark');
  expect(dialogs).toEqual([]);
});

test('opening a task reads its notifications, however the task was reached', async ({ browser, baseURL, request }) => {
  const alice = await registerUser(request, { firstName: 'Alice' });
  const boris = await registerUser(request, { firstName: 'Boris' });
  const { workspace, project } = await teamWorkspace(request, alice, [boris], 'Reading studio');
  const { tasks } = await oneStagePipeline(request, alice, project, {}, ['Shot 1', 'Shot 2']);
  for (const task of tasks) await call(request, alice, 'PATCH', `tasks/${task}/`, { assignees: [boris.id] });

  const b = await open(browser, baseURL, boris, workspace);
  await b.goto('/app');
  await expect(b.getByTestId('notifications-badge')).toHaveText('2');
  // Straight to the first task, as a link in a mail would: its notification is read, the other's not.
  await b.goto(`/app/tasks/${tasks[0]}`);
  await expect(b.getByTestId('task-title')).toContainText('Shot 1');
  await expect(b.getByTestId('notifications-badge')).toHaveText('1');
  await b.goto('/app/notifications');
  await expect(b.locator('[data-testid="notification"][data-read="false"]')).toHaveCount(1);
  await expect(b.locator('[data-testid="notification"][data-read="false"]')).toContainText('Shot 2');
});
