import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { TFieldDefinition } from '@stageline/shared/fields';
import { calls, json, lazy, renderAt, serve, setupAppHarness } from '../../../test/app-harness';
import { keyOfName } from './routes/project-fields';

setupAppHarness();

const field = (over: Partial<TFieldDefinition>): TFieldDefinition => ({
  id: 1,
  project: 5,
  key: 'frames',
  name: 'Frames',
  kind: 'number',
  applies_to: 'unit',
  stages: [],
  required: false,
  default: null,
  unit: 'fr',
  options: [],
  position: 0,
  archived: false,
  created_at: '2026-11-28T00:00:00Z',
  ...over,
});

const fields = [
  field({}),
  field({
    id: 2,
    key: 'difficulty',
    name: 'Difficulty',
    kind: 'select',
    unit: '',
    options: [{ id: 'hard', label: 'Hard', color: '#e03131' }],
  }),
  field({ id: 3, key: 'old', name: 'Old', kind: 'text', archived: true }),
];

describe('custom fields in the matrix', () => {
  it('asks the server for field filters and sorts, and draws the fields as columns', async () => {
    serve('member', (call) => {
      if (call.method === 'GET' && call.url === '/api/projects/5/fields/') return json(200, fields);
      if (call.method === 'GET' && call.url.startsWith('/api/units/matrix/'))
        return json(200, {
          count: 1,
          next_cursor: null,
          stages: [{ id: 10, name: 'Layout' }],
          rows: [{ unit: { id: 3, name: 'Shot 030', fields: { frames: 120, difficulty: 'hard' } }, tasks: [] }],
        });
      return undefined;
    });
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1200);
    renderAt('/app/projects/5/units?field.difficulty=hard&sort=field.frames');
    expect(await screen.findByText('120 fr', {}, lazy)).toBeInTheDocument();
    expect(screen.getAllByTestId('matrix-field-head').map((head) => head.textContent)).toEqual([
      'Frames',
      'Difficulty',
    ]);
    expect(screen.getByTestId('matrix-row')).toHaveTextContent('Hard');
    await waitFor(() =>
      expect(
        calls.some(
          (call) =>
            call.url.includes('/api/units/matrix/?') &&
            call.url.includes('field.difficulty=hard') &&
            call.url.includes('sort=field.frames'),
        ),
      ).toBe(true),
    );
    // The whole matrix cannot filter on fields: it is not asked for.
    expect(calls.some((call) => call.url.startsWith('/api/units/matrix/whole/'))).toBe(false);
  });

  it('makes a key from a field name', () => {
    expect(keyOfName('Client ref')).toBe('client_ref');
    expect(keyOfName('3D Frames!')).toBe('d_frames');
  });
});
