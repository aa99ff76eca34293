import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { TaskStatuses } from '../domain/tasks';
import { isWholeMatrixUnits, ZWholeMatrix } from './units';

const ids = fc.array(fc.integer({ min: 1, max: 2_000_000 }), { maxLength: 3 });
const cell = fc.oneof(
  fc.constant(null),
  fc
    .tuple(
      fc.integer({ min: 1, max: 2_000_000 }),
      fc.constantFrom(...TaskStatuses),
      fc.boolean(),
      fc.boolean(),
      fc.option(fc.constant('2026-11-24T10:00:00.000Z')),
      ids,
      fc.nat(50),
      ids,
    )
    // Any length from 2: the fields at their defaults are left off the end.
    .chain((full) => fc.integer({ min: 2, max: 8 }).map((length) => full.slice(0, length))),
);
const unit = fc.tuple(fc.integer({ min: 1, max: 2_000_000 }), fc.string(), fc.array(cell, { maxLength: 5 }));

/** A JSON value put in place of one element somewhere in the units: what a broken answer looks like. */
const broken = fc
  .tuple(fc.array(unit, { minLength: 1, maxLength: 4 }), fc.nat(), fc.nat(), fc.nat(), fc.jsonValue())
  .map(([units, u, c, f, value]) => {
    const copy = structuredClone(units) as unknown[][];
    const row = copy[u % copy.length]!;
    const cells = row[2] as unknown[][];
    if (cells.length > 0 && Array.isArray(cells[c % cells.length]) && f % 4 !== 0) {
      const target = cells[c % cells.length]!;
      target[f % (target.length + 1)] = value;
    } else row[f % 4] = value;
    return copy;
  });

describe('the whole matrix checked by hand', () => {
  const zod = (units: unknown) => ZWholeMatrix.shape.units.safeParse(units).success;

  test('accepts what the zod schema accepts', () => {
    fc.assert(fc.property(fc.array(unit, { maxLength: 6 }), (units) => isWholeMatrixUnits(units) === zod(units)));
  });

  test('refuses what the zod schema refuses', () => {
    fc.assert(fc.property(broken, (units) => isWholeMatrixUnits(units) === zod(units)), { numRuns: 2000 });
  });

  test('both agree on the edges: a float id, an unknown status, a cell of one field, a team list of text', () => {
    const good = [1, 'done', true, false, null, [2], 0];
    for (const units of [
      [[1.5, 'A', [good]]],
      [[1, 'A', [[1, 'nope', true, false, null, [], 0]]]],
      [[1, 'A', [good.slice(0, 1)]]],
      [[1, 'A', [[...good, ['x']]]]],
      [[1, 'A', [[...good, [3], 'extra']]]],
    ]) {
      expect(isWholeMatrixUnits(units)).toBe(false);
      expect(zod(units)).toBe(false);
    }
    const cells = [good, null, [...good, [4]], good.slice(0, 2), good.slice(0, 3), good.slice(0, 5)];
    expect(isWholeMatrixUnits([[1, 'A', cells]])).toBe(true);
    expect(zod([[1, 'A', cells]])).toBe(true);
  });
});
