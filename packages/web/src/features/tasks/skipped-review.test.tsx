import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TTask } from '@stageline/shared';
import { sampleTask } from '../../../test/served';
import { json, lazy, renderAt, serve, setupAppHarness } from '../../../test/app-harness';

setupAppHarness();

const bob = { id: 2, name: 'Bob', username: 'bob' };

/** Done by hand from review (issue 31, item 9): the server marks the entry `skipped_review`. */
const task: TTask = sampleTask({
  id: 61,
  status: 'done',
  assignees: [bob],
  history: [
    {
      id: 1,
      action: 'submit',
      from: 'in_progress',
      to: 'review',
      iteration: 1,
      actor: bob,
      comment: null,
      skipped_review: false,
      created_at: '2026-11-20T10:00:00Z',
    },
    {
      id: 2,
      action: 'set_status',
      from: 'review',
      to: 'done',
      iteration: null,
      actor: bob,
      comment: null,
      skipped_review: true,
      created_at: '2026-11-21T10:00:00Z',
    },
  ],
});

describe('the task history', () => {
  it('says who set Done by hand, skipping review, and only on that entry', async () => {
    serve('member', (call) => {
      if (call.method === 'GET' && call.url === '/api/tasks/61/') return json(200, task);
      if (call.method === 'GET' && call.url.startsWith('/api/attachments/'))
        return json(200, { count: 0, next: null, results: [] });
      if (call.method === 'GET' && call.url.startsWith('/api/comments/'))
        return json(200, { count: 0, next: null, results: [] });
      if (call.method === 'GET' && call.url === '/api/workspaces/7/users/') return json(200, []);
      return undefined;
    });
    renderAt('/app/tasks/61');
    fireEvent.click(await screen.findByTestId('task-tab-context', {}, lazy));
    const entries = await screen.findAllByTestId('task-history-entry');
    // Newest first.
    expect(within(entries[0]!).getByTestId('task-history-skipped-review')).toHaveTextContent(
      'set it to Done, skipping review',
    );
    expect(entries[0]).toHaveTextContent('Bob');
    expect(within(entries[1]!).queryByTestId('task-history-skipped-review')).toBeNull();
    expect(entries[1]).toHaveTextContent('Submitted');
  });
});
