import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { lazy, json, project, pipeline, serve, renderAt, sent, setupAppHarness } from '../../../test/app-harness';

setupAppHarness();

describe('projects', () => {
  it('lists the projects of a workspace; a guest sees no Create', async () => {
    serve('guest');
    renderAt('/app/workspaces/7');
    const row = await screen.findByTestId('project-row', {}, lazy);
    expect(row.getAttribute('data-id')).toBe('5');
    expect(row.textContent).toContain('Shorts');
    expect(row.textContent).toContain('2 pipelines');
    expect(row.textContent).toContain('14 units');
    expect(screen.queryByTestId('project-create-open')).toBeNull();
  });

  it('creates a project in the current workspace with its review defaults, then opens it', async () => {
    serve('member', ({ method, url }) =>
      method === 'POST' && url === '/api/projects/' ? json(201, project(11, 7, 'Trailers')) : undefined,
    );
    renderAt('/app/workspaces/7');
    fireEvent.click(await screen.findByTestId('project-create-open', {}, lazy));
    const name = await screen.findByTestId('project-create-name', {}, lazy);
    fireEvent.change(name, { target: { value: '  Trailers ' } });
    fireEvent.click(screen.getByTestId('project-create-skip-review'));
    fireEvent.click(screen.getByTestId('project-create-submit'));

    await waitFor(() => expect(sent('POST', '/api/projects/')).toHaveLength(1), lazy);
    expect(sent('POST', '/api/projects/')[0]!.body).toEqual({
      workspace: 7,
      name: 'Trailers',
      description: '',
      defaults: {
        review_mode: 'each_immediate',
        skip_review_if_no_reviewers: true,
        accept_edit_as_done: false,
        todo_enabled: true,
      },
    });
    expect((await screen.findByTestId('project-name', {}, lazy)).textContent).toBe('Trailers');
  });

  it("says 'Project not created' when the server refuses", async () => {
    serve('member', ({ method, url }) =>
      method === 'POST' && url === '/api/projects/' ? json(500, { detail: 'Boom', code: 'server_error' }) : undefined,
    );
    renderAt('/app/projects/create');
    fireEvent.change(await screen.findByTestId('project-create-name', {}, lazy), { target: { value: 'X' } });
    fireEvent.click(screen.getByTestId('project-create-submit'));
    expect((await screen.findByTestId('project-create-error', {}, lazy)).textContent).toBe('Project not created');
  });

  it('tells a guest on the create screen that the role does not allow it', async () => {
    serve('guest');
    renderAt('/app/projects/create');
    expect(await screen.findByTestId('project-create-denied', {}, lazy)).toBeInTheDocument();
    expect(screen.queryByTestId('project-create-submit')).toBeNull();
  });

  it('lets a guest open a project but offers neither Edit nor Delete', async () => {
    serve('guest');
    renderAt('/app/projects/5');
    expect((await screen.findByTestId('project-name', {}, lazy)).textContent).toBe('Shorts');
    expect(screen.getByTestId('project-pipelines-count').textContent).toBe('2');
    expect(screen.getByTestId('project-units-count').textContent).toBe('14');
    expect(screen.getByTestId('project-defaults').textContent).toContain('Each reviewer, wait');
    expect(screen.queryByTestId('project-edit-open')).toBeNull();
    expect(screen.queryByTestId('project-delete')).toBeNull();
  });

  it('offers Edit and Delete to an admin', async () => {
    serve('admin');
    renderAt('/app/projects/5');
    expect(await screen.findByTestId('project-edit-open', {}, lazy)).toBeInTheDocument();
    expect(await screen.findByTestId('project-delete', {}, lazy)).toBeInTheDocument();
  });

  it('stores lastProject and switches to the workspace of a project from another one', async () => {
    serve('admin');
    renderAt('/app/projects/6');
    expect((await screen.findByTestId('project-name', {}, lazy)).textContent).toBe('Commercials');
    await waitFor(() => expect(localStorage.getItem('current_workspace')).toBe('8'), lazy);
    expect(localStorage.getItem('lastProject')).toBe('6');
    await waitFor(() => expect(sent('PATCH', '/api/users/1/')).toHaveLength(1), lazy);
    expect(sent('PATCH', '/api/users/1/')[0]!.body).toEqual({ recent_workspace: 8 });
  });

  it('does not switch for a project of the current workspace', async () => {
    serve('admin');
    renderAt('/app/projects/5');
    await screen.findByTestId('project-name', {}, lazy);
    await waitFor(() => expect(localStorage.getItem('lastProject')).toBe('5'), lazy);
    expect(localStorage.getItem('current_workspace')).toBe('7');
    expect(sent('PATCH', '/api/users/1/')).toHaveLength(0);
  });

  it("goes home with 'Error wile loading data' for a project that does not exist", async () => {
    serve('admin');
    const router = renderAt('/app/projects/404');
    expect(await screen.findByText('Error wile loading data: Project 404', {}, lazy)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/app'), lazy);
  });

  it('edits a project and deletes it (admin), going to its workspace', async () => {
    serve('admin', ({ method, url }) => {
      if (method === 'PATCH' && url === '/api/projects/5/') return json(200, project(5, 7, 'Shorts 2'));
      if (method === 'DELETE' && url === '/api/projects/5/') return json(204, null);
      return undefined;
    });
    const router = renderAt('/app/projects/5/edit');
    const name = await screen.findByTestId('project-edit-name', {}, lazy);
    expect((name as HTMLInputElement).value).toBe('Shorts');
    fireEvent.change(name, { target: { value: 'Shorts 2' } });
    fireEvent.click(screen.getByTestId('project-edit-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5'), lazy);
    expect(sent('PATCH', '/api/projects/5/')[0]!.body).toMatchObject({ name: 'Shorts 2' });
    expect(await screen.findByText('Saved', {}, lazy)).toBeInTheDocument();
    expect((await screen.findByTestId('project-name', {}, lazy)).textContent).toBe('Shorts 2');

    fireEvent.click(await screen.findByTestId('project-delete', {}, lazy));
    fireEvent.click(await screen.findByTestId('record-delete-confirm', {}, lazy));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/workspaces/7'), lazy);
    expect(sent('DELETE', '/api/projects/5/')).toHaveLength(1);
    expect(await screen.findByText('Deleted', {}, lazy)).toBeInTheDocument();
  });
});

describe('pipelines', () => {
  it('lists pipelines with counters; a row opens the pipeline; a guest sees no Create', async () => {
    serve('guest');
    const router = renderAt('/app/projects/5/pipelines');
    const row = await screen.findByTestId('pipeline-row', {}, lazy);
    expect(row.getAttribute('data-id')).toBe('7');
    expect(within(row).getByTestId('pipeline-stages-count').textContent).toBe('4');
    expect(within(row).getByTestId('pipeline-counter-todo').textContent).toBe('To do: 3');
    expect(within(row).getByTestId('pipeline-counter-overdue').textContent).toBe('Overdue: 1');
    expect(within(row).queryByTestId('pipeline-counter-review')).toBeNull();
    expect(screen.queryByTestId('pipeline-create-open')).toBeNull();
    fireEvent.click(within(row).getByTestId('pipeline-stages-count'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5/pipelines/7'), lazy);
  });

  it('says a list did not load, and loads it on Try again', async () => {
    let failures = 1;
    serve('member', ({ method, url }) =>
      method === 'GET' && url === '/api/pipelines/?project=5' && failures-- > 0
        ? json(400, { detail: 'Try later.', code: 'invalid' })
        : undefined,
    );
    renderAt('/app/projects/5/pipelines');
    const error = await screen.findByTestId('load-error', {}, lazy);
    expect(error).toHaveTextContent('Error while loading data');
    expect(screen.queryByTestId('pipeline-row')).toBeNull();
    fireEvent.click(within(error).getByTestId('load-error-retry'));
    expect(await screen.findByTestId('pipeline-row', {}, lazy)).toHaveAttribute('data-id', '7');
    expect(screen.queryByTestId('load-error')).toBeNull();
  });

  it.each(['/app/projects/5/pipelines/404', '/app/projects/5/pipelines/404/edit_flow'])(
    "%s of a pipeline that does not exist says 'Error wile loading data' and goes to the pipelines",
    async (path) => {
      serve('member');
      const router = renderAt(path);
      expect(await screen.findByText('Error wile loading data: Pipeline 404', {}, lazy)).toBeInTheDocument();
      await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5/pipelines'), lazy);
    },
  );

  it('creates a pipeline and opens the flow editor', async () => {
    serve('member', ({ method, url }) =>
      method === 'POST' && url === '/api/pipelines/' ? json(201, { ...pipeline(12, 'Lighting') }) : undefined,
    );
    const router = renderAt('/app/projects/5/pipelines');
    fireEvent.click(await screen.findByTestId('pipeline-create-open', {}, lazy));
    fireEvent.change(await screen.findByTestId('pipeline-create-name', {}, lazy), { target: { value: 'Lighting' } });
    fireEvent.click(within(screen.getByTestId('pipeline-create-layout')).getByText('Horizontal'));
    fireEvent.click(screen.getByTestId('pipeline-create-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5/pipelines/12/edit_flow'), lazy);
    expect(sent('POST', '/api/pipelines/')[0]!.body).toEqual({
      project: 5,
      name: 'Lighting',
      description: '',
      layout: 'horizontal',
    });
  });

  it('shows Home › project name › pipeline name › Edit, and deletes (admin) back to the list', async () => {
    serve('admin', ({ method, url }) =>
      method === 'DELETE' && url === '/api/pipelines/7/' ? json(204, null) : undefined,
    );
    const router = renderAt('/app/projects/5/pipelines/7/edit');
    expect((await screen.findByTestId<HTMLInputElement>('pipeline-edit-name', {}, lazy)).value).toBe('Animation');

    const crumbs = screen.getByTestId('breadcrumbs');
    await waitFor(() => expect(crumbs.textContent).toMatch(/^Home.*Shorts.*Animation.*Edit$/), lazy);
    const links = within(crumbs).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '/app'],
      ['Shorts', '/app/projects/5'],
      ['Animation', '/app/projects/5/pipelines/7'],
    ]);

    fireEvent.click(screen.getByTestId('pipeline-delete'));
    fireEvent.click(await screen.findByTestId('record-delete-confirm', {}, lazy));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5/pipelines'), lazy);
    expect(sent('DELETE', '/api/pipelines/7/')).toHaveLength(1);
  });

  it('saves a pipeline as a member (no Delete offered), then opens it', async () => {
    serve('member', ({ method, url }) =>
      method === 'PATCH' && url === '/api/pipelines/7/' ? json(200, pipeline(7, 'Animation 2')) : undefined,
    );
    const router = renderAt('/app/projects/5/pipelines/7/edit');
    const name = await screen.findByTestId<HTMLInputElement>('pipeline-edit-name', {}, lazy);
    await waitFor(() => expect(sent('GET', '/api/workspaces/7/')).toHaveLength(1), lazy);
    expect(screen.queryByTestId('pipeline-delete')).toBeNull();
    fireEvent.change(name, { target: { value: 'Animation 2' } });
    fireEvent.click(screen.getByTestId('pipeline-edit-submit'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/app/projects/5/pipelines/7'), lazy);
    expect(sent('PATCH', '/api/pipelines/7/')[0]!.body).toEqual({
      name: 'Animation 2',
      description: 'From sketch to render',
      layout: 'vertical',
    });
  });
});
