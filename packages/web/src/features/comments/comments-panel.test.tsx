import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TComment, TRole, TTask } from '@stageline/shared';
import { sampleTask } from '../../../test/served';
import { json, lazy, renderAt, sent, serve, setupAppHarness, type TCall } from '../../../test/app-harness';

setupAppHarness();

// Mantine scrolls the chosen suggestion into view; the test DOM has no layout to scroll.
Element.prototype.scrollIntoView ??= () => undefined;

const person = (id: number, name: string) => ({ id, name, username: name.toLowerCase() });

const task: TTask = sampleTask({ assignees: [person(2, 'Bob')] });

const member = (id: number, name: string, username: string) => ({
  user_id: id,
  invite_id: null,
  name,
  username,
  email: `${username}@example.com`,
  role: 'member',
  status: 'accepted',
  inviter_name: null,
  invited_by: null,
  abilities: { change_role: false, remove: false },
});
const members = [member(1, 'Ada Lovelace', 'ada'), member(2, 'Bob Stone', 'bob'), member(3, 'Boris Kay', 'boris')];

let nextId = 100;
const comment = (over: Partial<TComment> = {}): TComment => ({
  id: nextId++,
  task: 50,
  unit: null,
  author: person(2, 'Bob'),
  text: 'Looks good',
  mentions: [],
  created_at: '2026-11-22T10:00:00Z',
  edited_at: null,
  ...over,
});

/** The task screen with `existing` comments (of `count` in all) and the member list. */
function serveTask(role: TRole, existing: TComment[], extra: (call: TCall) => Response | undefined = () => undefined) {
  serve(role, (call) => {
    const answer = extra(call);
    if (answer) return answer;
    if (call.method === 'GET' && call.url === '/api/tasks/50/') return json(200, task);
    if (call.method === 'GET' && call.url === '/api/workspaces/7/users/') return json(200, members);
    if (call.method === 'GET' && call.url.startsWith('/api/comments/?task=50')) {
      const query = new URL(call.url, 'http://x').searchParams;
      const offset = Number(query.get('offset'));
      const limit = Number(query.get('limit'));
      const results = existing.slice(offset, offset + limit);
      return json(200, { count: existing.length, next: null, results });
    }
    if (call.method === 'POST' && call.url === '/api/comments/') {
      const body = call.body as { text: string };
      return json(201, comment({ author: person(1, 'Ada'), text: body.text }));
    }
    return undefined;
  });
}

const input = () => screen.getByTestId<HTMLTextAreaElement>('comment-composer-input');

function type(text: string) {
  const element = input();
  fireEvent.change(element, { target: { value: text, selectionStart: text.length, selectionEnd: text.length } });
}

describe('comments panel', () => {
  it('shows the empty state and sends with Ctrl+Enter', async () => {
    serveTask('member', []);
    renderAt('/app/tasks/50');
    expect(await screen.findByTestId('comments-empty', {}, lazy)).toHaveTextContent('No comments yet');
    type('First **note**');
    fireEvent.keyDown(input(), { key: 'Enter', code: 'Enter', ctrlKey: true });
    await waitFor(() => expect(sent('POST', '/api/comments/')).toHaveLength(1));
    expect(sent('POST', '/api/comments/')[0]!.body).toEqual({ task: 50, text: 'First **note**' });
    const list = await screen.findByTestId('comments-list');
    expect(within(list).getByText('note').tagName).toBe('STRONG');
    expect(input().value).toBe('');
    expect(await screen.findByText('Posted')).toBeInTheDocument();
  });

  it('sends with Cmd+Enter too, but a plain Enter only starts a new line', async () => {
    serveTask('guest', []);
    renderAt('/app/tasks/50');
    await screen.findByTestId('comments-empty', {}, lazy);
    type('line one');
    fireEvent.keyDown(input(), { key: 'Enter', code: 'Enter' });
    expect(sent('POST', '/api/comments/')).toHaveLength(0);
    fireEvent.keyDown(input(), { key: 'Enter', code: 'Enter', metaKey: true });
    await waitFor(() => expect(sent('POST', '/api/comments/')).toHaveLength(1));
  });

  it("says 'Data was not saved' and keeps the text when posting fails", async () => {
    serveTask('member', [], (call) =>
      call.method === 'POST' && call.url === '/api/comments/' ? json(500, { detail: 'boom' }) : undefined,
    );
    renderAt('/app/tasks/50');
    await screen.findByTestId('comments-empty', {}, lazy);
    type('keep me');
    fireEvent.click(screen.getByTestId('comment-composer-submit'));
    expect(await screen.findByText('Data was not saved')).toBeInTheDocument();
    expect(input().value).toBe('keep me');
  });

  it('previews the Markdown before sending', async () => {
    serveTask('member', []);
    renderAt('/app/tasks/50');
    await screen.findByTestId('comments-empty', {}, lazy);
    type('# Title\n\n- [x] done\n\nhi @bob');
    fireEvent.click(screen.getByTestId('comment-composer-preview'));
    const preview = await screen.findByTestId('comment-composer-preview-body');
    expect(within(preview).getByRole('heading', { name: 'Title' })).toBeInTheDocument();
    expect(within(preview).getByRole('checkbox')).toBeChecked();
    expect(preview.querySelector('[data-mention="bob"]')).toHaveTextContent('@bob');
  });

  it('completes @mentions from the members of the workspace', async () => {
    serveTask('member', []);
    renderAt('/app/tasks/50');
    await screen.findByTestId('comments-empty', {}, lazy);
    await waitFor(() => expect(sent('GET', '/api/workspaces/7/users/')).toHaveLength(1));
    type('thanks @bo');
    const options = await screen.findAllByTestId('mention-option');
    expect(options.map((o) => o.textContent)).toEqual(['@bobBob Stone', '@borisBoris Kay']);
    fireEvent.keyDown(input(), { key: 'ArrowDown', code: 'ArrowDown' });
    fireEvent.keyDown(input(), { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(input().value).toBe('thanks @boris '));
    expect(sent('POST', '/api/comments/')).toHaveLength(0);

    type('thanks @boris and @ad');
    fireEvent.click(await screen.findByText('@ada'));
    await waitFor(() => expect(input().value).toBe('thanks @boris and @ada '));
  });

  it('renders HTML and script links of a comment as text, never as elements', async () => {
    const payloads = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(2)">',
      '[click me](javascript:alert(3))',
      '<svg onload="alert(4)"></svg>',
      '<b onmouseover="alert(5)">bold?</b> <iframe src="javascript:alert(6)"></iframe>',
      '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCg3KTwvc2NyaXB0Pg==)',
      '![x](javascript:alert(8))',
    ];
    serveTask(
      'member',
      payloads.map((text) => comment({ text })),
    );
    renderAt('/app/tasks/50');
    const list = await screen.findByTestId('comments-list', {}, lazy);
    expect(within(list).getAllByTestId('comment')).toHaveLength(payloads.length);
    expect(list.querySelector('script, iframe, svg, img, b, [onerror], [onload], [onmouseover]')).toBeNull();
    for (const anchor of list.querySelectorAll('a')) {
      expect(anchor.getAttribute('href') ?? '').not.toMatch(/^\s*(javascript|data|vbscript):/i);
    }
    expect(list).toHaveTextContent('<script>alert(1)</script>');
    expect(list).toHaveTextContent('<img src=x onerror="alert(2)">');
    expect(within(list).getByText('click me').tagName).toBe('A');
  });

  it('shows the latest page first and loads earlier comments on demand', async () => {
    const thread = Array.from({ length: 25 }, (_, i) =>
      comment({ id: 1000 + i, text: `comment ${i}`, created_at: `2026-11-22T10:${String(i).padStart(2, '0')}:00Z` }),
    );
    serveTask('member', thread);
    renderAt('/app/tasks/50');
    const list = await screen.findByTestId('comments-list', {}, lazy);
    expect(within(list).getAllByTestId('comment')).toHaveLength(20);
    expect(list).toHaveTextContent('comment 24');
    expect(list).not.toHaveTextContent('comment 4 ');
    expect(sent('GET', '/api/comments/?task=50&offset=5&limit=20')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('comments-earlier'));
    await waitFor(() => expect(within(list).getAllByTestId('comment')).toHaveLength(25));
    expect(sent('GET', '/api/comments/?task=50&offset=0&limit=5')).toHaveLength(1);
    expect(within(list).getAllByTestId('comment')[0]).toHaveTextContent('comment 0');
    expect(screen.queryByTestId('comments-earlier')).toBeNull();
  });

  it('lets the author edit their own comment and marks edited ones', async () => {
    const mine = comment({ id: 1, author: person(1, 'Ada'), text: 'mine' });
    const theirs = comment({ id: 2, text: 'theirs', edited_at: '2026-11-22T11:00:00Z' });
    serveTask('member', [mine, theirs], (call) => {
      if (call.method === 'PATCH' && call.url === '/api/comments/1/')
        return json(200, { ...mine, text: 'mine, better', edited_at: '2026-11-22T12:00:00Z' });
      return undefined;
    });
    renderAt('/app/tasks/50');
    const list = await screen.findByTestId('comments-list', {}, lazy);
    const [first, second] = within(list).getAllByTestId('comment');
    expect(within(second!).getByTestId('comment-edited')).toHaveTextContent('(edited)');
    expect(within(second!).queryByTestId('comment-menu')).toBeNull();

    fireEvent.click(within(first!).getByTestId('comment-menu'));
    fireEvent.click(await screen.findByTestId('comment-edit'));
    const editor = within(first!).getByTestId('comment-editor-input');
    fireEvent.change(editor, { target: { value: 'mine, better' } });
    fireEvent.keyDown(editor, { key: 'Enter', code: 'Enter', ctrlKey: true });
    await waitFor(() => expect(sent('PATCH', '/api/comments/1/')).toHaveLength(1));
    expect(sent('PATCH', '/api/comments/1/')[0]!.body).toEqual({ text: 'mine, better' });
    await waitFor(() => expect(within(first!).getByTestId('comment-edited')).toBeInTheDocument());
    expect(first).toHaveTextContent('mine, better');
  });

  it('gives an admin a delete on comments of others', async () => {
    const theirs = comment({ id: 2, text: 'theirs' });
    serveTask('admin', [theirs], (call) =>
      call.method === 'DELETE' && call.url === '/api/comments/2/' ? json(204, null) : undefined,
    );
    renderAt('/app/tasks/50');
    const list = await screen.findByTestId('comments-list', {}, lazy);
    fireEvent.click(within(list).getByTestId('comment-menu'));
    expect(screen.queryByTestId('comment-edit')).toBeNull();
    fireEvent.click(await screen.findByTestId('comment-delete'));
    fireEvent.click(await screen.findByTestId('comment-delete-confirm'));
    await waitFor(() => expect(sent('DELETE', '/api/comments/2/')).toHaveLength(1));
    expect(await screen.findByTestId('comments-empty')).toBeInTheDocument();
  });

  it('comments on a unit from the unit screen', async () => {
    serve('guest', (call) => {
      if (call.method === 'GET' && call.url === '/api/units/3/')
        return json(200, {
          id: 3,
          project: 5,
          pipeline: 7,
          name: 'Shot 1',
          description: '',
          created_at: '2026-11-01T00:00:00Z',
          tasks: [],
        });
      if (call.method === 'GET' && call.url === '/api/workspaces/7/users/') return json(200, members);
      if (call.method === 'GET' && call.url === '/api/comments/?unit=3&offset=0&limit=20')
        return json(200, { count: 0, next: null, results: [] });
      if (call.method === 'POST' && call.url === '/api/comments/')
        return json(201, comment({ task: null, unit: 3, author: person(1, 'Ada'), text: 'On the unit' }));
      return undefined;
    });
    renderAt('/app/projects/5/units/3');
    await screen.findByTestId('comments-empty', {}, lazy);
    type('On the unit');
    fireEvent.keyDown(input(), { key: 'Enter', code: 'Enter', ctrlKey: true });
    await waitFor(() => expect(sent('POST', '/api/comments/')).toHaveLength(1));
    expect(sent('POST', '/api/comments/')[0]!.body).toEqual({ unit: 3, text: 'On the unit' });
    expect(await screen.findByTestId('comments-list')).toHaveTextContent('On the unit');
  });

  it('highlights the members a comment mentions', async () => {
    serveTask('member', [comment({ text: 'hey @ada and @nobody, mail a@b.c', mentions: [person(1, 'Ada')] })]);
    renderAt('/app/tasks/50');
    const list = await screen.findByTestId('comments-list', {}, lazy);
    const mentions = list.querySelectorAll('[data-mention]');
    expect([...mentions].map((m) => m.textContent)).toEqual(['@ada']);
  });
});
