import type { z } from 'zod';
import type {
  TFieldValues,
  TTaskCell,
  TTaskStatus,
  TWholeMatrix,
  TWholeMatrixCell,
  ZMatrixQuery,
} from '@stageline/shared';

/** The matrix filters and sort, without the page window. */
export type TMatrixFilter = Omit<z.infer<typeof ZMatrixQuery>, 'after' | 'offset' | 'limit'> & {
  /** Custom field filters by key (`field.<key>=…` on the server, docs/custom-fields.md). */
  fields?: Record<string, string>;
};

/** Whether the filter needs the server: custom field filters and sorts run only there. */
export const needsServer = (filter: TMatrixFilter) =>
  Object.keys(filter.fields ?? {}).length > 0 || (filter.sort ?? 'name').includes('field.');

/**
 * The whole matrix on the client (docs/live-updates.md, "The matrix"): the screen filters and sorts
 * the pipeline's units here, with the server's meaning of each filter, and patches single units when
 * live task events come. Pure functions over the answer of `GET units/matrix/whole/`.
 */
export type TWholeUnit = TWholeMatrix['units'][number];

/** Positions of a cell's fields (`WholeMatrixCellFields`; those after `status` may be left off at their defaults). */
const Cell = { id: 0, status: 1, ready: 2, overdue: 3, due: 4, assignees: 5, files: 6, teams: 7 } as const;

/** A unit as the grid draws it: one cell per stage, in the matrix's stage order, null where none. */
export type TGridRow = { id: number; name: string; cells: readonly (TTaskCell | null)[]; fields?: TFieldValues };

const anyCell = (unit: TWholeUnit, test: (cell: TWholeMatrixCell) => boolean) =>
  unit[2].some((cell) => cell !== null && test(cell));

/**
 * Indexes into `units` of those that pass `filter`, in its sort, as `GET units/matrix/` pages them:
 * each filter keeps units having at least one task that matches it (status, effective assignee,
 * assignee team, overdue), `search` is a case-insensitive part of the name. The server sends units
 * in name order (numbers by value); creation order is id order (ids are given as units are created).
 * `me` is the caller's id, for `assignee: 'me'`.
 */
export function selectUnits(units: readonly TWholeUnit[], filter: TMatrixFilter, me: number | undefined): number[] {
  const tests: ((unit: TWholeUnit) => boolean)[] = [];
  const { status, assignee_team: team, overdue } = filter;
  const person = filter.assignee === 'me' ? me : filter.assignee;
  const search = filter.search?.trim().toLocaleLowerCase();
  if (search) tests.push((unit) => unit[1].toLocaleLowerCase().includes(search));
  if (status) tests.push((unit) => anyCell(unit, (cell) => cell[Cell.status] === status));
  if (filter.assignee !== undefined)
    tests.push(
      (unit) => person !== undefined && anyCell(unit, (cell) => cell[Cell.assignees]?.includes(person) ?? false),
    );
  if (team !== undefined) tests.push((unit) => anyCell(unit, (cell) => cell[Cell.teams]?.includes(team) ?? false));
  if (overdue !== undefined) {
    const wanted = overdue === 'true';
    tests.push((unit) => anyCell(unit, (cell) => cell[Cell.overdue] === true) === wanted);
  }
  const picked: number[] = [];
  for (let index = 0; index < units.length; index++) {
    const unit = units[index]!;
    if (tests.every((passes) => passes(unit))) picked.push(index);
  }
  const sort = filter.sort ?? 'name';
  if (sort === '-name') picked.reverse();
  else if (sort === 'created') picked.sort((a, b) => units[a]![0] - units[b]![0]);
  else if (sort === '-created') picked.sort((a, b) => units[b]![0] - units[a]![0]);
  return picked;
}

const rows = new WeakMap<TWholeUnit, TGridRow>();

/** The cell's due date (milliseconds) as the grid's cells give it; made for the rows drawn only. */
const dueDate = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

/** A unit of the whole matrix as the grid's row, made once per unit (units are replaced, never changed). */
export function gridRow(unit: TWholeUnit, stages: TWholeMatrix['stages']): TGridRow {
  const known = rows.get(unit);
  if (known) return known;
  const row: TGridRow = {
    id: unit[0],
    name: unit[1],
    fields: unit[3],
    cells: unit[2].map((cell, index) =>
      cell === null
        ? null
        : {
            id: cell[Cell.id],
            stage: stages[index]?.id ?? 0,
            status: cell[Cell.status],
            ready: cell[Cell.ready] ?? false,
            overdue: cell[Cell.overdue] ?? false,
            due_date: dueDate(cell[Cell.due]),
            assignees: cell[Cell.assignees] ?? [],
            files: cell[Cell.files] ?? 0,
          },
    ),
  };
  rows.set(unit, row);
  return row;
}

/**
 * The matrix with one task's status changed at once (a live event says only the status); the unit's
 * other fields (readiness of the next stages, assignees) follow when its row is fetched again. The
 * same object when the task is not in it.
 */
export function withTaskStatus(
  matrix: TWholeMatrix,
  { unit, task, status }: { unit: number; task: number; status: TTaskStatus },
): TWholeMatrix {
  const index = matrix.units.findIndex((candidate) => candidate[0] === unit);
  const found = matrix.units[index];
  if (!found) return matrix;
  const at = found[2].findIndex((cell) => cell?.[Cell.id] === task);
  const cell = found[2][at];
  if (!cell || cell[Cell.status] === status) return matrix;
  const cells = [...found[2]];
  const changed = [...cell] as TWholeMatrixCell;
  changed[Cell.status] = status;
  cells[at] = changed;
  const units = [...matrix.units];
  units[index] = found[3] ? [found[0], found[1], cells, found[3]] : [found[0], found[1], cells];
  return { ...matrix, units };
}

/**
 * The matrix with the units of `fresh` (an answer of `?units=`) put in place of those it replaces;
 * `asked` units that the answer does not hold were deleted or moved and leave. Units new to the matrix
 * are not added here: their creation sends a `units` event, which refetches the whole.
 */
export function withUnits(matrix: TWholeMatrix, fresh: TWholeMatrix, asked: readonly number[]): TWholeMatrix {
  const byId = new Map(fresh.units.map((unit) => [unit[0], unit]));
  const gone = new Set(asked.filter((id) => !byId.has(id)));
  const units: TWholeUnit[] = [];
  for (const unit of matrix.units) {
    if (gone.has(unit[0])) continue;
    units.push(byId.get(unit[0]) ?? unit);
  }
  return { ...matrix, units, count: units.length };
}
