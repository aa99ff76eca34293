import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TTask, TUnit } from '@stageline/shared';
import { json, lazy, renderAt, serve, setupAppHarness, type TRoute } from '../../../test/app-harness';
import { sampleTask } from '../../../test/served';

setupAppHarness();

/** Unit 3 "Shot 1" of pipeline 7 (Animation) in project 5 (Shorts). */
const unit: TUnit = {
  id: 3,
  project: 5,
  pipeline: 7,
  name: 'Shot 1',
  fields: {},
  description: '',
  created_at: '2024-01-01T00:00:00Z',
  tasks: [],
};

/** Its task 50 at stage Compositing. */
const task: TTask = sampleTask({
  status: 'todo',
  iteration: { number: 0, accepted_by: [], rejected_by: [], closed: false, outcome: null },
});

const records: TRoute = ({ method, url }) => {
  if (method === 'GET' && url === '/api/units/3/') return json(200, unit);
  if (method === 'GET' && url === '/api/tasks/50/') return json(200, task);
  return undefined;
};

/** The trail once every name is known: its text, and its links with their targets. */
async function trail(text: RegExp) {
  const crumbs = await screen.findByTestId('breadcrumbs', {}, lazy);
  await waitFor(() => expect(crumbs.textContent).toMatch(text), lazy);
  return within(crumbs)
    .queryAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('breadcrumbs', () => {
  it("the unit page: Home / project / pipeline / the unit's name", async () => {
    serve('member', records);
    renderAt('/app/projects/5/units/3');
    expect(await trail(/^Home\/Shorts\/Animation\/Shot 1$/)).toEqual([
      ['Home', '/app'],
      ['Shorts', '/app/projects/5'],
      ['Animation', '/app/projects/5/pipelines/7'],
    ]);
  });

  it('the unit edit page links the unit and ends in Edit', async () => {
    serve('member', records);
    renderAt('/app/projects/5/units/3/edit');
    expect(await trail(/^Home\/Shorts\/Animation\/Shot 1\/Edit$/)).toEqual([
      ['Home', '/app'],
      ['Shorts', '/app/projects/5'],
      ['Animation', '/app/projects/5/pipelines/7'],
      ['Shot 1', '/app/projects/5/units/3'],
    ]);
  });

  it('the task page: Home / project / pipeline / unit / task', async () => {
    serve('member', records);
    renderAt('/app/tasks/50');
    expect(await trail(/^Home\/Shorts\/Animation\/Shot 1\/Compositing$/)).toEqual([
      ['Home', '/app'],
      ['Shorts', '/app/projects/5'],
      ['Animation', '/app/projects/5/pipelines/7'],
      ['Shot 1', '/app/projects/5/units/3'],
    ]);
  });
});
