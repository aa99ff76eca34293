import { MantineProvider } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useForm } from '@mantine/form';
import { QueryClientProvider, queryOptions } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api';
import { queryClient } from '../api/query-client';
import { initI18n } from '../i18n';
import { RecordDeleteButton, RecordView } from './record-view';
import { useRecord } from './use-record';

// The toasts the records loader shows, read where they all go (Mantine's store), by colour.
const shown = vi.spyOn(notifications, 'show').mockReturnValue('');
const kindOf: Record<string, string> = { teal: 'success', red: 'error', blue: 'info', yellow: 'warning' };

type TThing = { id: number; name: string };

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

let calls: { method: string; url: string; body: unknown }[] = [];

/** A fake API holding thing 3 only; `overrides` answers what a test is about. */
function serve(overrides: (method: string, url: string) => Response | undefined = () => undefined) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined });
      const answer = overrides(method, url);
      if (answer) return answer;
      if (url === '/api/things/3/' && method === 'GET') return json(200, { id: 3, name: 'Spoon' });
      if (url === '/api/things/3/' && method === 'PATCH') return json(200, { id: 3, name: 'Fork' });
      if (url === '/api/things/3/' && method === 'DELETE') return json(204, null);
      return json(404, { detail: 'Not found.', code: 'not_found' });
    }),
  );
}

const thingQuery = (id: number) =>
  queryOptions({
    queryKey: ['things', id],
    queryFn: ({ signal }) => api.get<TThing>(`things/${id}/`, { signal, silent: true }),
  });

function ThingScreen({ allowEmpty = false }: { allowEmpty?: boolean }) {
  const record = useRecord({
    model: 'thing',
    label: 'Thing',
    query: thingQuery,
    homePath: () => '/things',
    allowEmpty,
    save: (id, changes: { name: string }) => api.patch<TThing>(`things/${id}/`, changes, { silent: true }),
    remove: (id) => api.delete(`things/${id}/`, { silent: true }),
  });
  return (
    <div>
      <span data-testid="status">{record.status}</span>
      <RecordView record={record} title="Thing">
        {(thing) => <ThingForm thing={thing} record={record} />}
      </RecordView>
    </div>
  );
}

function ThingForm({
  thing,
  record,
}: {
  thing: TThing;
  record: ReturnType<typeof useRecord<TThing, readonly unknown[], { name: string }>>;
}) {
  const form = useForm({ initialValues: { name: thing.name } });
  return (
    <form
      onSubmit={form.onSubmit((values) => void record.save(values, { fields: ['name'], setErrors: form.setErrors }))}
    >
      <span data-testid="name">{thing.name}</span>
      <input data-testid="name-input" {...form.getInputProps('name')} />
      {form.errors.name ? <span data-testid="name-error">{form.errors.name}</span> : null}
      <button type="submit" data-testid="save">
        save
      </button>
      <RecordDeleteButton record={record} name={thing.name} testId="thing-delete" />
    </form>
  );
}

function renderAt(path: string, allowEmpty = false) {
  const router = createMemoryRouter(
    [
      { path: '/things', element: <span data-testid="home">home</span> },
      { path: '/things/new', element: <ThingScreen allowEmpty={allowEmpty} /> },
      { path: '/things/:thingId', element: <ThingScreen /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}

const toasts = () =>
  shown.mock.calls.map(([toast]) => `${kindOf[String(toast.color)] ?? 'unknown'}: ${toast.message as string}`);

beforeAll(async () => {
  await initI18n().changeLanguage('en');
});

beforeEach(() => {
  queryClient.clear();
  shown.mockClear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

afterAll(() => {
  shown.mockRestore();
});

describe('useRecord', () => {
  it('reads the id from {model}Id and goes from loading to loaded', async () => {
    serve();
    renderAt('/things/3');
    expect(screen.getByTestId('status').textContent).toBe('loading');
    expect(screen.getByTestId('record-loading')).toBeInTheDocument();
    expect((await screen.findByTestId('name')).textContent).toBe('Spoon');
    expect(screen.getByTestId('status').textContent).toBe('loaded');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/things/3/']);
  });

  it("says 'no id provided' without an id, and nothing when the context allows none", async () => {
    serve();
    renderAt('/things/new');
    expect(screen.getByTestId('status').textContent).toBe('no-id');
    expect(screen.getByTestId('record-no-id').textContent).toBe('Error loading context: no id provided');
    expect(calls).toEqual([]);
  });

  it('shows nothing for a missing id when the context allows empty', () => {
    serve();
    renderAt('/things/new', true);
    expect(screen.getByTestId('status').textContent).toBe('no-id');
    expect(screen.queryByTestId('record-no-id')).toBeNull();
  });

  it('reads an id that is not a number as no id', () => {
    serve();
    renderAt('/things/abc');
    expect(screen.getByTestId('record-no-id')).toBeInTheDocument();
  });

  it('names the record of a failed load (404) and goes to the home route', async () => {
    serve();
    const router = renderAt('/things/8');
    await waitFor(() => expect(router.state.location.pathname).toBe('/things'));
    expect(screen.getByTestId('home')).toBeInTheDocument();
    expect(toasts()).toEqual(['error: Error wile loading data: Thing 8']);
  });

  it('saves, then reports saved', async () => {
    serve();
    renderAt('/things/3');
    fireEvent.change(await screen.findByTestId('name-input'), { target: { value: 'Fork' } });
    fireEvent.click(screen.getByTestId('save'));
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('saved'));
    expect(toasts()).toEqual(['success: Saved']);
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Fork' });
  });

  it('keeps field errors on the form and names the record of a failed save', async () => {
    serve((method) => (method === 'PATCH' ? json(400, { name: ['Field can not be empty'] }) : undefined));
    renderAt('/things/3');
    await screen.findByTestId('name-input');
    fireEvent.click(screen.getByTestId('save'));
    expect((await screen.findByTestId('name-error')).textContent).toBe('Field can not be empty');
    expect(toasts()).toEqual(['error: Error wile sending data: Thing 3']);
    expect(screen.getByTestId('status').textContent).toBe('loaded');
  });

  it('deletes after a confirmation, says Deleted and goes home', async () => {
    serve();
    const router = renderAt('/things/3');
    fireEvent.click(await screen.findByTestId('thing-delete'));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(await screen.findByTestId('record-delete-confirm'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/things'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/api/things/3/']);
    expect(toasts()).toEqual(['success: Deleted']);
  });

  it('names the record of a failed delete and stays', async () => {
    serve((method) => (method === 'DELETE' ? json(403, { detail: 'No.', code: 'forbidden' }) : undefined));
    const router = renderAt('/things/3');
    fireEvent.click(await screen.findByTestId('thing-delete'));
    fireEvent.click(await screen.findByTestId('record-delete-confirm'));
    await waitFor(() => expect(toasts()).toEqual(['error: Error wile deleting: Thing 3']));
    expect(router.state.location.pathname).toBe('/things/3');
    expect(screen.getByTestId('status').textContent).toBe('loaded');
  });
});
