import ICAL from 'ical.js';
import { registerUser, uniqueName } from './support/accounts';
import { call, oneStagePipeline, openAs, teamWorkspace, twoInputsPipeline } from './support/api';
import { expect, snap, test } from './support/fixtures';

/**
 * The schedule (docs/schedule.md): a lead opens the timeline of a 200-unit project, drags a task a
 * week later and sees the forecast name the late unit and what it waits on, and the milestone turn
 * at risk; then, by keyboard alone, makes another bar a day longer and hears it announced.
 */

type TForecast = {
  units: { id: number; name: string; tasks: { id: number; stage: number }[] }[];
};

const today = new Date().toISOString().slice(0, 10);
const after = (days: number) => {
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

test('drag a task a week later: the unit is late, waiting on Rig, and the milestone at risk; resize by keyboard', async ({
  browser,
  baseURL,
  request,
}) => {
  const lead = await registerUser(request, { firstName: 'Lena' });
  const team = await teamWorkspace(request, lead, [], uniqueName('Schedule'));
  // Every day a working day, so the dates below are plain arithmetic.
  await call(request, lead, 'PUT', `workspaces/${team.workspace}/calendar/`, { working_days: [1, 2, 3, 4, 5, 6, 7] });
  const flow = await twoInputsPipeline(request, lead, team.project, {});
  for (const [stage, days] of [
    [flow.stages.model, 2],
    [flow.stages.rig, 3],
    [flow.stages.anim, 2],
  ] as const)
    await call(request, lead, 'PATCH', `stages/${stage}/`, { default_duration_days: days });
  await call(request, lead, 'POST', 'units/batch/', {
    project: team.project,
    pipeline: flow.pipeline,
    template: 'Shot {count}',
    count: 200,
    start: 1,
    step: 1,
  });
  const forecast = await call<TForecast>(request, lead, 'GET', `projects/${team.project}/forecast/`);
  const shot = forecast.units.find((unit) => unit.name === 'Shot 1')!;
  const taskAt = (stage: number) => shot.tasks.find((task) => task.stage === stage)!.id;
  const [model, rig, anim] = [taskAt(flow.stages.model), taskAt(flow.stages.rig), taskAt(flow.stages.anim)];
  await call(request, lead, 'PATCH', `tasks/${anim}/`, { due_date: `${after(5)}T00:00:00.000Z` });
  const milestone = await call<{ id: number }>(request, lead, 'POST', `projects/${team.project}/milestones/`, {
    name: 'Delivery',
    date: after(6),
    units: [shot.id],
  });

  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/projects/${team.project}`);
  await page.getByTestId('project-schedule-open').click();
  await expect(page).toHaveURL(new RegExp(`/app/projects/${team.project}/schedule$`));
  await expect(page.getByTestId('schedule-timeline')).toHaveAttribute('data-count', '200');
  const rigBar = page.getByTestId(`schedule-bar-${rig}`);
  await expect(rigBar).toHaveAttribute('data-start', today);
  await expect(rigBar).toHaveAttribute('data-end', after(2));
  // Animation starts after both inputs (the forecast) and ends on its due date (its own).
  const animBar = page.getByTestId(`schedule-bar-${anim}`);
  await expect(animBar).toHaveAttribute('data-start', after(3));
  await expect(animBar).toHaveAttribute('data-end', after(5));
  await expect(page.getByTestId(`schedule-risk-${milestone.id}`)).toHaveAttribute('data-risk', 'false');
  await expect(page.getByTestId(`schedule-late-${shot.id}`)).toHaveCount(0);
  await expect(page.getByTestId('schedule-today')).toBeVisible();

  // Drag Rig a week later (28 px a day): Animation now ends after its due date.
  const box = (await rigBar.boundingBox())!;
  await page.mouse.move(box.x + 10, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 10 + 7 * 28, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(rigBar).toHaveAttribute('data-start', after(7));
  await expect(rigBar).toHaveAttribute('data-end', after(9));
  await expect(page.getByTestId(`schedule-late-${shot.id}`)).toHaveText('Late by 6 working days, waiting on Rig');
  await expect(page.getByTestId(`schedule-risk-${milestone.id}`)).toHaveAttribute('data-risk', 'true');
  await expect(page.getByTestId(`schedule-milestone-${milestone.id}`)).toContainText('at risk');
  const saved = await call<{ start_date: string; due_date: string }>(request, lead, 'GET', `tasks/${rig}/`);
  expect([saved.start_date, saved.due_date.slice(0, 10)]).toEqual([after(7), after(9)]);
  await snap(page, 'schedule');

  // Keyboard alone: select Model's bar and make it a day longer (Shift+→); it is announced.
  const modelBar = page.getByTestId(`schedule-bar-${model}`);
  await modelBar.focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect(modelBar).toHaveAttribute('data-end', after(2));
  await expect(page.getByTestId('schedule-announcer')).toContainText('now ends on');
  await page.keyboard.press('ArrowRight');
  await expect(modelBar).toHaveAttribute('data-start', after(1));
  await expect(modelBar).toHaveAttribute('data-end', after(3));
  await expect(page.getByTestId('schedule-announcer')).toContainText('moved to');
  await expect
    .poll(async () => (await call<{ due_date: string }>(request, lead, 'GET', `tasks/${model}/`)).due_date.slice(0, 10))
    .toBe(after(3));
});

test('workload shows an artist over capacity this week', async ({ browser, baseURL, request }) => {
  const lead = await registerUser(request, { firstName: 'Wanda' });
  const artist = await registerUser(request, { firstName: 'Artem' });
  const team = await teamWorkspace(request, lead, [artist], uniqueName('Workload'));
  const flow = await oneStagePipeline(request, lead, team.project, { default_assignees: [artist.id] }, ['Shot 010']);
  // Every day a working day (today may be a Saturday); 80 hours due today: more than a week holds.
  await call(request, lead, 'PUT', `workspaces/${team.workspace}/calendar/`, { working_days: [1, 2, 3, 4, 5, 6, 7] });
  await call(request, lead, 'PATCH', `tasks/${flow.tasks[0]}/`, {
    estimate_hours: 80,
    start_date: today,
    due_date: `${today}T00:00:00.000Z`,
  });

  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto(`/app/workspaces/${team.workspace}`);
  await page.getByTestId('workspace-workload-open').click();
  await expect(page).toHaveURL(new RegExp(`/app/workspaces/${team.workspace}/workload$`));
  const cell = page.getByTestId(`workload-cell-${artist.id}-0`);
  await expect(cell).toHaveAttribute('data-over', 'true');
  await expect(cell).toContainText('80 / 56 h');
  await expect(page.getByTestId(`workload-cell-${lead.id}-0`)).not.toHaveAttribute('data-over', 'true');
  await snap(page, 'workload');
  await page.getByTestId('workload-next').click();
  await expect(page.getByTestId(`workload-cell-${artist.id}-0`)).not.toHaveAttribute('data-over', 'true');
});

test('a calendar client reads the feed of the profile’s secret link; revoked, it is gone', async ({
  browser,
  baseURL,
  request,
  playwright,
}) => {
  const lead = await registerUser(request, { firstName: 'Olga' });
  const team = await teamWorkspace(request, lead, [], uniqueName('Feed'));
  const flow = await oneStagePipeline(request, lead, team.project, { default_assignees: [lead.id] }, ['Shot 070']);
  await call(request, lead, 'PATCH', `tasks/${flow.tasks[0]}/`, { due_date: `${after(3)}T00:00:00.000Z` });

  const page = await openAs(browser, baseURL, lead, team.workspace);
  await page.goto('/app/profile');
  const section = page.getByTestId('profile-calendar-feed-section');
  await expect(section.getByTestId('calendar-feed-state')).toHaveText('No link yet.');
  await section.getByTestId('calendar-feed-make').click();
  const url = await section.getByTestId('calendar-feed-url').inputValue();
  expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]+\.ics$/);

  // A calendar client: a plain fetch without the session, parsed by an iCalendar library.
  const client = await playwright.request.newContext();
  const feed = await client.get(url);
  expect(feed.status()).toBe(200);
  const events = ICAL.Component.fromString(await feed.text())
    .getAllSubcomponents('vevent')
    .map((vevent) => new ICAL.Event(vevent));
  expect(events.map((event) => [event.summary, event.startDate.toString()])).toEqual([
    ['Due: Shot 070 · Layout', after(3)],
  ]);

  await section.getByTestId('calendar-feed-revoke').click();
  await expect(section.getByTestId('calendar-feed-state')).toHaveText('No link yet.');
  expect((await client.get(url)).status()).toBe(404);
  await client.dispose();
});
