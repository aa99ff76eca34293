import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TAttachment, TTask } from '@stageline/shared';
import { sampleTask } from '../../../test/served';
import { json, lazy, renderAt, serve, setupAppHarness } from '../../../test/app-harness';

setupAppHarness();

const person = (id: number, name: string) => ({ id, name, username: name.toLowerCase() });

/** In review, round 2 open, Ada (the signed-in user) its reviewer; submitted twice by Bob. */
const task: TTask = sampleTask({
  id: 60,
  status: 'review',
  assignees: [person(2, 'Bob')],
  reviewers: [person(1, 'Ada')],
  iteration: { number: 2, accepted_by: [], rejected_by: [], closed: false, outcome: null },
  history: [1, 2].map((round) => ({
    id: round,
    action: 'submit' as const,
    from: 'in_progress' as const,
    to: 'review' as const,
    iteration: round,
    actor: person(2, 'Bob'),
    comment: null,
    skipped_review: false,
    created_at: `2026-11-2${round}T10:00:00Z`,
  })),
});

const file = (id: number, name: string, round: number): TAttachment => ({
  id,
  name,
  size: 100,
  content_type: 'video/mp4',
  created_at: '2026-11-22T10:00:00Z',
  author: person(2, 'Bob'),
  task: 60,
  unit: null,
  comment: null,
  round,
  preview: 'video',
  content_url: `/api/attachments/${id}/content/?token=x`,
  thumbnail_url: null,
  thumbnail_pending: false,
  abilities: { delete: false },
});

describe('review with files', () => {
  it("names the open round's files beside Accept and Reject, shows each file once, and each round's in the history", async () => {
    const files = [file(1, 'v1.mp4', 1), file(2, 'v2.mp4', 2), file(3, 'v2-notes.mp4', 2)];
    serve('member', (call) => {
      if (call.method === 'GET' && call.url === '/api/tasks/60/') return json(200, task);
      if (call.method === 'GET' && call.url === '/api/attachments/?task=60')
        return json(200, { count: files.length, results: files });
      if (call.method === 'GET' && call.url.startsWith('/api/comments/'))
        return json(200, { count: 0, next: null, results: [] });
      if (call.method === 'GET' && call.url === '/api/workspaces/7/users/') return json(200, []);
      return undefined;
    });
    renderAt('/app/tasks/60');
    expect(await screen.findByTestId('task-accept', {}, lazy)).toBeInTheDocument();
    const round = await screen.findByTestId('task-round-files');
    expect(round).toHaveTextContent('Files of round 2');
    expect(
      within(round)
        .getAllByTestId('task-round-file')
        .map((link) => link.textContent),
    ).toEqual(['v2.mp4', 'v2-notes.mp4']);
    // Each file is one card on the screen: the round names them, the files panel shows them (decision 198).
    expect(within(round).queryAllByTestId('attachment')).toHaveLength(0);
    for (const name of ['v1.mp4', 'v2.mp4', 'v2-notes.mp4']) {
      expect(screen.getAllByTestId('attachment').filter((card) => card.textContent?.includes(name))).toHaveLength(1);
    }

    fireEvent.click(screen.getByTestId('task-tab-context'));
    const lists = await screen.findAllByTestId('task-history-files');
    // Newest first: round 2's submit, then round 1's.
    expect(lists.map((list) => list.textContent)).toEqual(['v2.mp4v2-notes.mp4', 'v1.mp4']);
  });
});
