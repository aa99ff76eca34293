import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TaskStatuses } from '../domain/tasks';
import {
  isWholeMatrixCells,
  isWholeMatrixUnits,
  wholeMatrixRows,
  WholeMatrixCellFields,
  ZWholeMatrix,
  type TWholeMatrixAnswer,
} from './whole-matrix';

const id = fc.integer({ min: 1, max: 2_000_000 });
const flag = fc.constantFrom(0, 1);
const cell = fc
  .tuple(
    id,
    id,
    id,
    fc.nat(TaskStatuses.length - 1),
    flag,
    flag,
    fc.option(fc.integer({ min: 0, max: 4_000_000_000_000 })),
    flag,
  )
  // Any length from 4: the fields at their defaults are left off the end.
  .chain((full) => fc.integer({ min: 4, max: 8 }).map((length) => full.slice(0, length)));
const unit = fc.tuple(id, fc.string());

/** A JSON value put in place of one element somewhere: what a broken answer looks like. */
function broken<T>(item: fc.Arbitrary<T[]>) {
  return fc
    .tuple(fc.array(item, { minLength: 1, maxLength: 4 }), fc.nat(), fc.nat(), fc.jsonValue())
    .map(([items, i, f, value]) => {
      const copy = structuredClone(items) as unknown[][];
      const target = copy[i % copy.length]!;
      target[f % (target.length + 1)] = value;
      return copy;
    });
}

describe('the whole matrix checked by hand', () => {
  const zodCells = (cells: unknown) => ZWholeMatrix.shape.cells.safeParse(cells).success;
  const zodUnits = (units: unknown) => ZWholeMatrix.shape.units.safeParse(units).success;

  test('accepts what the zod schema accepts', () => {
    fc.assert(fc.property(fc.array(cell, { maxLength: 8 }), (cells) => isWholeMatrixCells(cells) === zodCells(cells)));
    fc.assert(fc.property(fc.array(unit, { maxLength: 6 }), (units) => isWholeMatrixUnits(units) === zodUnits(units)));
  });

  test('refuses what the zod schema refuses', () => {
    fc.assert(
      fc.property(broken(cell), (cells) => isWholeMatrixCells(cells) === zodCells(cells)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(broken(unit as fc.Arbitrary<unknown[]>), (units) => isWholeMatrixUnits(units) === zodUnits(units)),
      { numRuns: 500 },
    );
  });

  test('both agree on the edges: a float id, a status out of range, a flag of 2, a date as text, too short', () => {
    const good = [1, 2, 3, 4, 1, 0, 1_700_000_000_000, 1];
    for (const cells of [
      [[1.5, 2, 3, 0]],
      [[1, 2, 3, TaskStatuses.length]],
      [[1, 2, 3, -1]],
      [[1, 2, 3, 0, 2]],
      [[1, 2, 3, 0, 1, 0, '2026-11-24T00:00:00.000Z']],
      [good.slice(0, 3)],
      [[...good, 1]],
    ]) {
      expect(isWholeMatrixCells(cells)).toBe(false);
      expect(zodCells(cells)).toBe(false);
    }
    const cells = [good, good.slice(0, 4), good.slice(0, 5), [1, 2, 3, 0, 0, 0, null, 1]];
    expect(isWholeMatrixCells(cells)).toBe(true);
    expect(zodCells(cells)).toBe(true);
  });
});

describe('wholeMatrixRows', () => {
  const answer: TWholeMatrixAnswer = {
    pipeline: 1,
    count: 2,
    stages: [
      { id: 10, name: 'Layout', assignees: [7], teams: [] },
      { id: 11, name: 'Animation', assignees: [], teams: [3] },
    ],
    statuses: [...TaskStatuses],
    cell: [...WholeMatrixCellFields],
    people: [[7, 'ann', 'Ann', 'Lee']],
    units: [
      [5, 'Shot 1'],
      [4, 'Shot 2'],
    ],
    // In no particular order; one cell of a stage the answer does not list, one of an unknown unit.
    cells: [
      [4, 11, 104, TaskStatuses.indexOf('review'), 1, 1, 1_700_000_000_000, 1],
      [5, 10, 101, TaskStatuses.indexOf('done')],
      [5, 11, 102, TaskStatuses.indexOf('todo'), 1],
      [4, 10, 103, TaskStatuses.indexOf('in_progress'), 0, 0, null, 1],
      [5, 99, 105, 0],
      [6, 10, 106, 0],
    ],
    assignees: { 104: [8, 9] },
    teams: {},
    files: { 101: 2 },
  };

  test('puts each cell in its unit and stage, with the effective assignees and teams, trimmed', () => {
    const matrix = wholeMatrixRows(answer);
    expect(matrix.stages).toEqual([
      { id: 10, name: 'Layout' },
      { id: 11, name: 'Animation' },
    ]);
    expect(matrix.units).toEqual([
      [
        5,
        'Shot 1',
        [
          // The stage's default assignee, and the files.
          [101, 'done', false, false, null, [7], 2],
          // The stage's default team.
          [102, 'todo', true, false, null, [], 0, [3]],
        ],
      ],
      [
        4,
        'Shot 2',
        [
          // Its own assignment, which is nobody: not the stage's default.
          [103, 'in_progress'],
          // Its own assignees, not the stage's team.
          [104, 'review', true, true, 1_700_000_000_000, [8, 9]],
        ],
      ],
    ]);
  });

  test('a unit without a task at a stage has a null there', () => {
    const matrix = wholeMatrixRows({ ...answer, cells: answer.cells.slice(0, 2) });
    expect(matrix.units.map(([, , cells]) => cells.map((c) => c?.[0] ?? null))).toEqual([
      [101, null],
      [null, 104],
    ]);
  });
});
