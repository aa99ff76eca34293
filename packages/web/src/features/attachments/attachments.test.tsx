import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TAttachment, TComment, TRole, TTask } from '@stageline/shared';
import { sampleTask } from '../../../test/served';
import { setUploadLimit } from './upload-limit';
import { json, lazy, renderAt, sent, serve, setupAppHarness } from '../../../test/app-harness';

setupAppHarness();

// The limit is module state (read at boot): leave none behind for other tests.
afterEach(() => setUploadLimit(null));

const person = (id: number, name: string) => ({ id, name, username: name.toLowerCase() });

const task: TTask = sampleTask({ assignees: [person(2, 'Bob')] });

let nextId = 300;
const file = (over: Partial<TAttachment>): TAttachment => {
  const id = nextId++;
  return {
    id,
    name: 'file.bin',
    size: 2048,
    content_type: 'application/octet-stream',
    created_at: '2026-11-22T10:00:00Z',
    author: person(2, 'Bob'),
    task: 50,
    unit: null,
    comment: null,
    round: 1,
    preview: null,
    content_url: `/api/attachments/${id}/content/?token=t${id}`,
    thumbnail_url: null,
    thumbnail_pending: false,
    abilities: { delete: false },
    ...over,
  };
};

const comment: TComment = {
  id: 90,
  task: 50,
  unit: null,
  author: person(2, 'Bob'),
  text: 'Here is v3',
  mentions: [],
  created_at: '2026-11-22T10:00:00Z',
  edited_at: null,
};

function serveTask(role: TRole, files: TAttachment[]) {
  serve(role, (call) => {
    if (call.method === 'GET' && call.url === '/api/tasks/50/') return json(200, task);
    if (call.method === 'GET' && call.url === '/api/workspaces/7/users/') return json(200, []);
    if (call.method === 'GET' && call.url === '/api/attachments/?task=50')
      return json(200, { count: files.length, results: files });
    if (call.method === 'GET' && call.url.startsWith('/api/comments/?task=50'))
      return json(200, { count: 1, next: null, results: [comment] });
    if (call.method === 'DELETE' && call.url.startsWith('/api/attachments/'))
      return new Response(null, { status: 204 });
    return undefined;
  });
}

describe('files on the task screen', () => {
  it('an image waiting for its thumbnail says so, one without shows an icon; neither loads the whole image', async () => {
    const waiting = file({ name: 'new.png', content_type: 'image/png', preview: 'image', thumbnail_pending: true });
    const huge = file({ name: 'huge.png', content_type: 'image/png', preview: 'image' });
    serveTask('member', [waiting, huge]);
    renderAt('/app/tasks/50');

    const panel = await screen.findByTestId('files-panel', {}, lazy);
    await waitFor(() => expect(panel).toHaveAttribute('data-count', '2'));
    const [first, second] = within(panel).getAllByTestId('attachment');
    expect(within(first!).getByTestId('thumbnail-pending')).toHaveTextContent('Preparing the preview');
    expect(within(second!).getByTestId('thumbnail-none')).toBeInTheDocument();
    expect(within(panel).queryAllByRole('img')).toEqual([]);
    // The lightbox still opens the image when asked.
    fireEvent.click(within(second!).getByTestId('attachment-open'));
    expect(await screen.findByTestId('lightbox-image')).toHaveAttribute('src', huge.content_url);
  });

  it('shows each kind its way: image thumbnail and lightbox with zoom, video player, PDF in a tab, download', async () => {
    const image = file({
      name: 'Раскадровка.png',
      content_type: 'image/png',
      preview: 'image',
      thumbnail_url: '/api/attachments/1/thumbnail/?token=x',
      abilities: { delete: true },
    });
    const video = file({ name: 'turntable.mp4', content_type: 'video/mp4', preview: 'video', size: 3 * 1024 * 1024 });
    const pdf = file({ name: 'board.pdf', content_type: 'application/pdf', preview: 'pdf' });
    const svg = file({ name: 'logo.svg', content_type: 'image/svg+xml' });
    const onComment = file({
      name: 'screenshot.png',
      content_type: 'image/png',
      preview: 'image',
      task: null,
      comment: 90,
      thumbnail_url: '/api/attachments/2/thumbnail/?token=y',
    });
    serveTask('member', [image, video, pdf, svg, onComment]);
    renderAt('/app/tasks/50');

    const panel = await screen.findByTestId('files-panel', {}, lazy);
    await waitFor(() => expect(panel).toHaveAttribute('data-count', '4'));
    const cards = within(panel).getAllByTestId('attachment');
    expect(cards.map((c) => c.dataset.preview)).toEqual(['image', 'video', 'pdf', 'download']);
    expect(within(cards[0]!).getByRole('img')).toHaveAttribute('src', image.thumbnail_url);
    expect(within(cards[1]!).getByTestId('attachment-video')).toHaveAttribute('src', video.content_url);
    expect(within(cards[1]!).getByText(/3\.0 MB/)).toBeInTheDocument();
    expect(within(cards[2]!).getByRole('link', { name: /^board\.pdf/ })).toHaveAttribute('target', '_blank');
    expect(within(cards[3]!).getByTestId('attachment-download')).toHaveAttribute('download', 'logo.svg');
    // Delete only where the server said so.
    expect(within(panel).getAllByTestId('attachment-delete')).toHaveLength(1);

    // The comment's file is under its comment, not in the task's files.
    const comments = await screen.findByTestId('comments-list');
    await waitFor(() => expect(within(comments).getByAltText('screenshot.png')).toBeInTheDocument());

    fireEvent.click(within(cards[0]!).getByTestId('attachment-open'));
    const big = await screen.findByTestId('lightbox-image');
    expect(big).toHaveAttribute('src', image.content_url);
    expect(screen.getByTestId('lightbox-zoom')).toHaveTextContent('100%');
    fireEvent.click(screen.getByTestId('lightbox-zoom-in'));
    expect(screen.getByTestId('lightbox-zoom')).toHaveTextContent('150%');
    fireEvent.click(screen.getByTestId('lightbox-zoom-out'));
    fireEvent.click(screen.getByTestId('lightbox-zoom-out'));
    expect(screen.getByTestId('lightbox-zoom')).toHaveTextContent('75%');

    fireEvent.click(within(panel).getByTestId('attachment-delete'));
    await waitFor(() => expect(sent('DELETE', `/api/attachments/${image.id}/`)).toHaveLength(1));
    expect(await screen.findByText('File deleted')).toBeInTheDocument();
  });

  it('offers attaching to anyone the workspace lets attach, Guests included; says when there are none', async () => {
    serveTask('guest', []);
    renderAt('/app/tasks/50');
    const panel = await screen.findByTestId('files-panel', {}, lazy);
    expect(await within(panel).findByTestId('files-empty')).toHaveTextContent(
      'No files yet. Drop files here or attach them.',
    );
    expect(within(panel).getByTestId('files-attach')).toBeInTheDocument();
  });

  it('refuses a file over MAX_UPLOAD_MB at once, with the reason, and sends nothing', async () => {
    setUploadLimit(1);
    serveTask('member', []);
    renderAt('/app/tasks/50');
    const panel = await screen.findByTestId('files-panel', {}, lazy);
    const big = new File([new Uint8Array(1024 * 1024 + 1)], 'render.exr');
    fireEvent.change(await within(panel).findByTestId('files-input'), { target: { files: [big] } });
    expect(await within(panel).findByTestId('upload-error')).toHaveTextContent('A file can be at most 1 MB.');
    fireEvent.click(within(panel).getByTestId('upload-cancel'));
    expect(within(panel).queryByTestId('upload-row')).toBeNull();
  });

  it('a screenshot pasted into the comment box waits beside it, named by its time, until the comment is sent', async () => {
    serveTask('member', []);
    renderAt('/app/tasks/50');
    const input = await screen.findByTestId('comment-composer-input', {}, lazy);
    const shot = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'image.png', { type: 'image/png' });
    fireEvent.paste(input, { clipboardData: { files: [shot], types: ['Files'], getData: () => '' } });
    const pending = await screen.findByTestId('comment-pending-file');
    expect(pending).toHaveTextContent(/^Screenshot \d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2}\.png$/);
    fireEvent.click(within(pending).getByRole('button', { name: /Remove/ }));
    expect(screen.queryByTestId('comment-pending-file')).toBeNull();
  });
});
