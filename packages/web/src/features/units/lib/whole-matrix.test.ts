import { describe, expect, test } from 'vitest';
import type { TTaskStatus, TWholeMatrix, TWholeMatrixCell } from '@stageline/shared';
import { gridRow, selectUnits, withTaskStatus, withUnits, type TWholeUnit } from './whole-matrix';

/** A cell as `wholeMatrixRows` makes it: the fields after `overdue` only up to the last one not at its default. */
function cell(
  id: number,
  patch: { status?: TTaskStatus; overdue?: boolean; assignees?: number[]; teams?: number[] } = {},
): TWholeMatrixCell {
  const status = patch.status ?? 'todo';
  const overdue = patch.overdue ?? false;
  if (patch.teams) return [id, status, true, overdue, null, patch.assignees ?? [], 0, patch.teams];
  if (patch.assignees) return [id, status, true, overdue, null, patch.assignees];
  return overdue ? [id, status, false, true] : [id, status];
}

// In the server's order: names by value ("Shot 2" before "Shot 10"); ids as created.
const units: TWholeUnit[] = [
  [30, 'Shot 1', [cell(301, { status: 'done' }), cell(302, { assignees: [7] })]],
  [10, 'Shot 2', [cell(101, { overdue: true }), null]],
  [20, 'Shot 10', [cell(201, { status: 'review', teams: [4] }), cell(202, { assignees: [8, 7] })]],
];
const matrix: TWholeMatrix = {
  pipeline: 1,
  count: 3,
  stages: [
    { id: 5, name: 'Layout' },
    { id: 6, name: 'Light' },
  ],
  people: [],
  units,
};
const names = (indexes: number[]) => indexes.map((i) => units[i]![1]);

describe('selectUnits: the paged matrix filters, run on the whole', () => {
  test('sorts by name as sent, reversed, and by creation (id)', () => {
    expect(names(selectUnits(units, { pipeline: 1, sort: 'name' }, 7))).toEqual(['Shot 1', 'Shot 2', 'Shot 10']);
    expect(names(selectUnits(units, { pipeline: 1, sort: '-name' }, 7))).toEqual(['Shot 10', 'Shot 2', 'Shot 1']);
    expect(names(selectUnits(units, { pipeline: 1, sort: 'created' }, 7))).toEqual(['Shot 2', 'Shot 10', 'Shot 1']);
    expect(names(selectUnits(units, { pipeline: 1, sort: '-created' }, 7))).toEqual(['Shot 1', 'Shot 10', 'Shot 2']);
  });

  test('keeps units with a matching task for each filter, all filters together', () => {
    const only = (filter: Partial<Parameters<typeof selectUnits>[1]>, me?: number) =>
      names(selectUnits(units, { pipeline: 1, sort: 'name', ...filter }, me));
    expect(only({ status: 'done' })).toEqual(['Shot 1']);
    expect(only({ assignee: 'me' }, 7)).toEqual(['Shot 1', 'Shot 10']);
    expect(only({ assignee: 8 })).toEqual(['Shot 10']);
    expect(only({ assignee: 'me' })).toEqual([]);
    expect(only({ assignee_team: 4 })).toEqual(['Shot 10']);
    expect(only({ overdue: 'true' })).toEqual(['Shot 2']);
    expect(only({ overdue: 'false' })).toEqual(['Shot 1', 'Shot 10']);
    expect(only({ search: 'shot 1' })).toEqual(['Shot 1', 'Shot 10']);
    expect(only({ search: 'SHOT 1', assignee: 8 })).toEqual(['Shot 10']);
    expect(only({ status: 'done', overdue: 'true' })).toEqual([]);
  });
});

describe('patching the whole matrix', () => {
  test('a row has one cell per stage with its stage id, and is made once per unit', () => {
    const row = gridRow(units[1]!, matrix.stages);
    expect(row).toEqual({
      id: 10,
      name: 'Shot 2',
      cells: [expect.objectContaining({ id: 101, stage: 5, overdue: true, assignees: [] }), null],
    });
    expect(gridRow(units[1]!, matrix.stages)).toBe(row);
    // The due date comes in milliseconds and goes to the grid as the paged matrix's text.
    const due = gridRow([40, 'Shot 3', [[401, 'todo', true, false, Date.UTC(2026, 10, 24)], null]], matrix.stages);
    expect(due.cells[0]?.due_date).toBe('2026-11-24T00:00:00.000Z');
  });

  test('a task status changes at once in a new matrix; an unknown task leaves it as it was', () => {
    const changed = withTaskStatus(matrix, { unit: 20, task: 202, status: 'in_progress' });
    expect(changed).not.toBe(matrix);
    expect(changed.units[2]![2][1]![1]).toBe('in_progress');
    expect(matrix.units[2]![2][1]![1]).toBe('todo');
    expect(changed.units[0]).toBe(matrix.units[0]);
    expect(withTaskStatus(matrix, { unit: 20, task: 999, status: 'done' })).toBe(matrix);
    expect(withTaskStatus(matrix, { unit: 99, task: 202, status: 'done' })).toBe(matrix);
  });

  test('fetched rows replace theirs; asked units missing from the answer leave', () => {
    const fresh: TWholeMatrix = { ...matrix, count: 1, units: [[20, 'Shot 10 (v2)', [cell(201), cell(202)]]] };
    const merged = withUnits(matrix, fresh, [20, 10]);
    expect(merged.units.map((u) => u[1])).toEqual(['Shot 1', 'Shot 10 (v2)']);
    expect(merged.count).toBe(2);
  });
});
