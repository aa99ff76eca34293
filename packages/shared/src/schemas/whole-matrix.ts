import { z } from 'zod';
import { TaskStatuses, type TTaskStatus } from '../domain/tasks';
import { ZTaskStatus } from './units';
import { ZFieldValues, type TFieldValues } from './fields-core';

/**
 * The whole unit × stage matrix of a pipeline (issue 13; docs/decisions.md, "The whole matrix"): the
 * answer of `GET units/matrix/whole/`, and the rows the web app draws from it (`wholeMatrixRows`).
 *
 * The answer is shaped so that the database writes it in one pass over the pipeline's tasks, with no
 * sort and no join per task: the units once, in name order; the cells flat and in no particular order,
 * each naming its unit and stage; the little that few tasks have (their own assignees and teams,
 * their files) in maps by task id; the stages' default assignees and teams once. Field names and
 * statuses come once too, so a cell is a short array of numbers.
 */

/**
 * A cell's fields, in the order its array holds them: the unit's and the stage's ids, the task's id,
 * its status (an index into `statuses`), then `ready` and `overdue` (1 or 0), the effective due date
 * (milliseconds since 1970 UTC, or null), and `own` (1 when the task has its own assignees and teams rather than its stage's defaults). The
 * array ends after the last field not at its default (0, null, 0), so most cells are four numbers.
 */
export const WholeMatrixCellFields = ['unit', 'stage', 'id', 'status', 'ready', 'overdue', 'due', 'own'] as const;

const ZWholeId = z.number().int();
const ZFlag = z.union([z.literal(0), z.literal(1)]);
const ZIds = z.array(ZWholeId);

export const ZWholeMatrixCell = z.tuple([
  ZWholeId,
  ZWholeId,
  ZWholeId,
  z
    .number()
    .int()
    .min(0)
    .max(TaskStatuses.length - 1),
  ZFlag.optional(),
  ZFlag.optional(),
  z.number().int().nullable().optional(),
  ZFlag.optional(),
]);

/** GET units/matrix/whole/ (see the top of this file). Maps are keyed by task id. */
export const ZWholeMatrix = z.object({
  pipeline: ZWholeId,
  count: ZWholeId,
  /** In flow order, with their default assignees (members only) and assignee teams. */
  stages: z.array(z.object({ id: ZWholeId, name: z.string(), assignees: ZIds, teams: ZIds })),
  statuses: z.array(ZTaskStatus),
  cell: z.array(z.enum(WholeMatrixCellFields)),
  /** The workspace's people, `[id, username, first_name, last_name]`. */
  people: z.array(z.tuple([ZWholeId, z.string(), z.string(), z.string()])),
  /** `[id, name]`, in name order (numbers by value). */
  units: z.array(z.tuple([ZWholeId, z.string()])),
  cells: z.array(ZWholeMatrixCell),
  /** The own assignees (members only) of the tasks with `own`, where they have some. */
  assignees: z.record(z.string(), ZIds),
  /** The own assignee teams of the tasks with `own`, where they have some. */
  teams: z.record(z.string(), ZIds),
  /** Files on a task and its comments, where there are some. */
  files: z.record(z.string(), ZWholeId),
  /**
   * Custom field values by unit id, of the units that have some (docs/custom-fields.md). Optional in
   * the type only: the server always sends it.
   */
  fields: z.record(z.string(), ZFieldValues).optional(),
});
export type TWholeMatrixAnswer = z.infer<typeof ZWholeMatrix>;

const isWholeNumber = (value: unknown) => Number.isSafeInteger(value);
const isFlag = (value: unknown) => value === 0 || value === 1;

/**
 * `ZWholeMatrix`'s `cells`, checked by hand (see `ZWholeMatrixChecked`). Indexes rather than
 * destructuring: this runs for every cell.
 */
export function isWholeMatrixCells(cells: unknown): cells is TWholeMatrixAnswer['cells'] {
  if (!Array.isArray(cells)) return false;
  for (const cell of cells as unknown[]) {
    if (!Array.isArray(cell)) return false;
    const n = cell.length;
    if (n < 4 || n > 8) return false;
    const status: unknown = cell[3];
    const fits =
      isWholeNumber(cell[0]) &&
      isWholeNumber(cell[1]) &&
      isWholeNumber(cell[2]) &&
      isWholeNumber(status) &&
      (status as number) >= 0 &&
      (status as number) < TaskStatuses.length &&
      (n < 5 || isFlag(cell[4])) &&
      (n < 6 || isFlag(cell[5])) &&
      (n < 7 || cell[6] === null || isWholeNumber(cell[6])) &&
      (n < 8 || isFlag(cell[7]));
    if (!fits) return false;
  }
  return true;
}

/** `ZWholeMatrix`'s `units`, checked by hand. */
export function isWholeMatrixUnits(units: unknown): units is TWholeMatrixAnswer['units'] {
  if (!Array.isArray(units)) return false;
  for (const unit of units)
    if (!Array.isArray(unit) || unit.length !== 2 || !isWholeNumber(unit[0]) || typeof unit[1] !== 'string')
      return false;
  return true;
}

/**
 * `ZWholeMatrix` as the web app checks it: the same shape, with the units and the cells (200,000 at
 * 10,000 units × 20 stages) checked by one hand-written pass each instead of a zod tuple per element
 * (docs/decisions.md, "Speed"). A property test holds both to the same answers.
 */
export const ZWholeMatrixChecked = ZWholeMatrix.extend({
  units: z.custom<TWholeMatrixAnswer['units']>(isWholeMatrixUnits, { message: 'Invalid value.' }),
  cells: z.custom<TWholeMatrixAnswer['cells']>(isWholeMatrixCells, { message: 'Invalid value.' }),
});

/**
 * A cell as the screen keeps it: `[id, status, ready, overdue, due, assignees, files, teams]` with the
 * effective assignees and teams and the due date in milliseconds, the fields at their defaults
 * (false, null, none, 0) left off the end.
 */
export type TWholeMatrixCell = [
  id: number,
  status: TTaskStatus,
  ready?: boolean,
  overdue?: boolean,
  due?: number | null,
  assignees?: number[],
  files?: number,
  teams?: number[],
];
/** A unit as the screen keeps it: one cell per stage, in the stages' order, null where it has no task. */
export type TWholeMatrixUnit = [id: number, name: string, cells: (TWholeMatrixCell | null)[], fields?: TFieldValues];
/** The whole matrix as the screen keeps it (`wholeMatrixRows`). */
export type TWholeMatrix = {
  pipeline: number;
  count: number;
  stages: { id: number; name: string }[];
  people: TWholeMatrixAnswer['people'];
  units: TWholeMatrixUnit[];
};

const isAtDefault = (value: unknown) =>
  value === false || value === null || value === 0 || (Array.isArray(value) && value.length === 0);

/**
 * The answer as rows: each unit with its cells in the stages' order. A task's assignees and teams are
 * its own when it has `own`, else its stage's defaults, the rule of `effectiveAssignment`. A cell of a
 * unit or a stage the answer does not list (a graph save under way) is left out.
 */
export function wholeMatrixRows(answer: TWholeMatrixAnswer): TWholeMatrix {
  const column = new Map(answer.stages.map((stage, index) => [stage.id, index]));
  const rowOf = new Map<number, (TWholeMatrixCell | null)[]>();
  const units = answer.units.map(([id, name]): TWholeMatrixUnit => {
    const cells = new Array<TWholeMatrixCell | null>(answer.stages.length).fill(null);
    rowOf.set(id, cells);
    const fields = answer.fields?.[String(id)];
    return fields ? [id, name, cells, fields] : [id, name, cells];
  });
  const noIds: number[] = [];
  for (const fields of answer.cells) {
    const cells = rowOf.get(fields[0]);
    const at = column.get(fields[1]);
    if (!cells || at === undefined) continue;
    const stage = answer.stages[at]!;
    const id = fields[2];
    const n = fields.length;
    const own = n > 7 && fields[7] === 1;
    const assignees = own ? (answer.assignees[id] ?? noIds) : stage.assignees;
    const teams = own ? (answer.teams[id] ?? noIds) : stage.teams;
    const cell: TWholeMatrixCell = [
      id,
      answer.statuses[fields[3]]!,
      n > 4 && fields[4] === 1,
      n > 5 && fields[5] === 1,
      n > 6 ? (fields[6] ?? null) : null,
      assignees,
      answer.files[id] ?? 0,
      teams,
    ];
    let length = 8;
    while (length > 2 && isAtDefault(cell[length - 1])) length--;
    cells[at] = length === 8 ? cell : (cell.slice(0, length) as TWholeMatrixCell);
  }
  return {
    pipeline: answer.pipeline,
    count: answer.count,
    stages: answer.stages.map(({ id, name }) => ({ id, name })),
    people: answer.people,
    units,
  };
}
