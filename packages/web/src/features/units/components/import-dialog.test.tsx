import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { calls, json, lazy, renderAt, serve, setupAppHarness, type TCall } from '../../../../test/app-harness';

setupAppHarness();

const emptyMatrix = (call: TCall) =>
  call.method === 'GET' && call.url.startsWith('/api/units/matrix/')
    ? json(200, { count: 0, next_cursor: null, stages: [], rows: [] })
    : undefined;

const imports = () => calls.filter((c) => c.method === 'POST' && c.url === '/api/units/import/');

describe('the Import CSV dialog', () => {
  it('previews the file, lists a dry run’s problems, and imports once a check passed', async () => {
    const answers = [
      json(400, {
        created: 0,
        dry_run: true,
        errors: [{ line: 3, field: 'Layout: due', message: '“soon” is not a date.' }],
      }),
      json(200, { created: 2, dry_run: true, errors: [] }),
      json(200, { created: 2, dry_run: false, errors: [] }),
    ];
    serve('member', (call) =>
      call.method === 'POST' && call.url === '/api/units/import/' ? answers.shift() : emptyMatrix(call),
    );
    renderAt('/app/projects/5/units');
    fireEvent.click(await screen.findByTestId('units-import-open', {}, lazy));
    const dialog = await screen.findByTestId('units-import-dialog');
    const submit = within(dialog).getByTestId('units-import-submit');
    expect(submit).toBeDisabled();

    const input = dialog.querySelector('input[type=file]')!;
    const file = new File(['\uFEFFname,Layout: due\r\nSH010,2026-12-31\r\nSH020,soon\r\n'], 'shots.csv', {
      type: 'text/csv',
    });
    fireEvent.change(input, { target: { files: [file] } });
    expect(await within(dialog).findByTestId('units-import-preview')).toHaveTextContent('SH020,soon');

    fireEvent.click(within(dialog).getByTestId('units-import-check'));
    const errors = await within(dialog).findByTestId('units-import-errors');
    expect(errors).toHaveTextContent('Layout: due');
    expect(errors).toHaveTextContent('“soon” is not a date.');
    expect(submit).toBeDisabled();

    fireEvent.click(within(dialog).getByTestId('units-import-check'));
    expect(await within(dialog).findByTestId('units-import-ok')).toHaveTextContent('2 units will be created');
    await waitFor(() => expect(submit).toBeEnabled());
    fireEvent.click(submit);
    await waitFor(() => expect(screen.queryByTestId('units-import-dialog')).toBeNull());
    expect(imports()).toHaveLength(3);
  });

  it('is not offered to guests, who still get Export CSV', async () => {
    serve('guest', emptyMatrix);
    renderAt('/app/projects/5/units');
    expect(await screen.findByTestId('units-export', {}, lazy)).toBeInTheDocument();
    expect(screen.queryByTestId('units-import-open')).toBeNull();
  });
});
