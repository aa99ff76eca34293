import type { TTaskStatus } from './task-vocabulary';
import type { WorkCalendar } from './calendar';

/**
 * The forecast along the pipeline's diagram (docs/schedule.md, "Forecast"): for every unit, when
 * each open task can finish at the earliest, given its status, its own dates, its estimate or its
 * stage's default duration, the working days of the calendar, and the tasks of the stages that
 * lead into it (a task starts the working day after its last input finishes). Pure: the server
 * feeds it rows, a test feeds it numbers. Days are day numbers (`dayOf`).
 *
 * Each unit is independent of the others, so a change to one task recomputes one unit
 * (`forecastUnit`), and the whole project is one pass over its tasks in the stages' order.
 */

export type TForecastStage = {
  id: number;
  /** The stages whose tasks must be done before this one starts (the start and end nodes left out). */
  inputs: readonly number[];
  /** "Lasts N working days": the stage's default duration, or null. */
  durationDays: number | null;
};

export type TForecastTask = {
  id: number;
  stage: number;
  status: TTaskStatus;
  /** The planned start and the due date (day numbers), or null. */
  start: number | null;
  due: number | null;
  estimateHours: number | null;
  /** Whose days off count (the first assignee), or null for the workspace's calendar alone. */
  person: number | null;
};

export type TForecastUnit = { id: number; tasks: readonly TForecastTask[] };

export type TTaskForecast = {
  task: number;
  stage: number;
  /** Earliest start and finish (both working days, both included). */
  start: number;
  finish: number;
  /** Working days past the due date (0: on time or no due date). */
  lateBy: number;
  /** The input stage whose finish decides this task's start, or null (today or its own start decides). */
  waitsFor: number | null;
};

export type TUnitForecast = {
  unit: number;
  /** When the unit's last open task finishes; null when every task is done. */
  finish: number | null;
  /** The open tasks' forecasts in the stages' order. */
  tasks: TTaskForecast[];
  /** The chain of stages that decides `finish`, first to last. */
  criticalPath: number[];
  /** The most days a task finishes past its due date (0: none late). */
  lateBy: number;
  /** The stage of that late task, and the stage at the head of its chain: what the unit waits on. */
  lateStage: number | null;
  waitingOn: number | null;
};

export type TMilestoneInput = {
  id: number;
  date: number;
  /** null: every unit of the project. */ units: readonly number[] | null;
};
export type TMilestoneForecast = {
  id: number;
  /** The latest finish among its units (null: they are all done). */
  forecast: number | null;
  atRisk: boolean;
  /** Its units forecast to finish after its date. */
  lateUnits: number[];
};

export type TForecast = {
  units: TUnitForecast[];
  milestones: TMilestoneForecast[];
  /** The unit that finishes last and its chain of stages: the project's critical path. */
  critical: { unit: number; stages: number[] } | null;
};

export type TForecastInput = {
  today: number;
  hoursPerDay: number;
  calendar: WorkCalendar;
  stages: readonly TForecastStage[];
  units: readonly TForecastUnit[];
  milestones?: readonly TMilestoneInput[];
};

/** Thrown when the stages' inputs form a cycle (a saved pipeline never does: docs/rules.md §Pipelines). */
export class ForecastCycleError extends Error {
  constructor() {
    super('pipeline_cycle');
    this.name = 'ForecastCycleError';
  }
}

/** The stages prepared once per pipeline: a topological order and inputs as indexes. */
export type TStagePlan = {
  order: Int32Array;
  inputs: Int32Array[];
  index: Map<number, number>;
  ids: number[];
  durations: (number | null)[];
};

export function planStages(stages: readonly TForecastStage[]): TStagePlan {
  const index = new Map<number, number>();
  stages.forEach((stage, i) => index.set(stage.id, i));
  const inputs = stages.map(
    (stage) => new Int32Array(stage.inputs.filter((id) => index.has(id)).map((id) => index.get(id)!)),
  );
  // Kahn's algorithm over the inputs.
  const waiting = inputs.map((list) => list.length);
  const outputs: number[][] = stages.map(() => []);
  inputs.forEach((list, target) => list.forEach((source) => outputs[source]!.push(target)));
  const order = new Int32Array(stages.length);
  let head = 0;
  let tail = 0;
  waiting.forEach((n, i) => {
    if (n === 0) order[tail++] = i;
  });
  while (head < tail) {
    const s = order[head++]!;
    for (const next of outputs[s]!) if (--waiting[next]! === 0) order[tail++] = next;
  }
  if (tail !== stages.length) throw new ForecastCycleError();
  return { order, inputs, index, ids: stages.map((s) => s.id), durations: stages.map((s) => s.durationDays) };
}

/** How many working days a task lasts: its own dates, else its estimate, else its stage's default, else one. */
function durationOf(task: TForecastTask, stageDays: number | null, hoursPerDay: number, calendar: WorkCalendar) {
  if (task.start !== null && task.due !== null && task.due >= task.start)
    return Math.max(1, calendar.between(task.start, task.due, task.person));
  if (task.estimateHours !== null && task.estimateHours > 0)
    return Math.max(1, Math.ceil(task.estimateHours / hoursPerDay));
  if (stageDays !== null) return Math.max(1, stageDays);
  return 1;
}

const Started = new Set<TTaskStatus>(['in_progress', 'review', 'edit']);

/** One unit's forecast (`plan` from `planStages`). */
export function forecastUnit(
  unit: TForecastUnit,
  plan: TStagePlan,
  { today, hoursPerDay, calendar }: Pick<TForecastInput, 'today' | 'hoursPerDay' | 'calendar'>,
): TUnitForecast {
  const n = plan.ids.length;
  const byStage = new Array<TForecastTask | undefined>(n);
  for (const task of unit.tasks) {
    const i = plan.index.get(task.stage);
    if (i !== undefined) byStage[i] = task;
  }
  const finish = new Float64Array(n).fill(-Infinity);
  const bound = new Int32Array(n).fill(-1);
  const results: TTaskForecast[] = [];
  const resultAt = new Array<TTaskForecast | undefined>(n);
  let last = -1;
  let worst = -1;
  for (const s of plan.order) {
    const task = byStage[s];
    if (!task || task.status === 'done') continue;
    let inputsDone = -Infinity;
    let binding = -1;
    for (const i of plan.inputs[s]!) {
      if (finish[i]! > inputsDone) {
        inputsDone = finish[i]!;
        binding = i;
      }
    }
    const duration = durationOf(task, plan.durations[s]!, hoursPerDay, calendar);
    let start: number;
    let end: number;
    if (Started.has(task.status)) {
      // Already under way: its start is history, it cannot finish before today.
      start = Math.min(task.start ?? today, today);
      end = Math.max(calendar.finishOf(start, duration, task.person), calendar.onOrAfter(today, task.person));
      binding = -1;
    } else {
      let earliest = today;
      if (inputsDone !== -Infinity && inputsDone + 1 > earliest) earliest = inputsDone + 1;
      else binding = -1;
      if (task.start !== null && task.start > earliest) {
        earliest = task.start;
        binding = -1;
      }
      start = calendar.onOrAfter(earliest, task.person);
      end = calendar.finishOf(start, duration, task.person);
    }
    finish[s] = end;
    bound[s] = binding;
    const lateBy = task.due !== null && end > task.due ? Math.max(1, calendar.between(task.due + 1, end)) : 0;
    const result: TTaskForecast = {
      task: task.id,
      stage: plan.ids[s]!,
      start,
      finish: end,
      lateBy,
      waitsFor: binding >= 0 ? plan.ids[binding]! : null,
    };
    results.push(result);
    resultAt[s] = result;
    if (last < 0 || end > finish[last]!) last = s;
    if (lateBy > 0 && (worst < 0 || lateBy > resultAt[worst]!.lateBy)) worst = s;
  }
  const chain = (from: number) => {
    const path: number[] = [];
    for (let s = from; s >= 0; s = bound[s]!) path.push(s);
    return path.reverse();
  };
  const critical = last >= 0 ? chain(last) : [];
  const lateChain = worst >= 0 ? chain(worst) : [];
  return {
    unit: unit.id,
    finish: last >= 0 ? finish[last]! : null,
    tasks: results,
    criticalPath: critical.map((s) => plan.ids[s]!),
    lateBy: worst >= 0 ? resultAt[worst]!.lateBy : 0,
    lateStage: worst >= 0 ? plan.ids[worst]! : null,
    waitingOn: lateChain.length > 0 ? plan.ids[lateChain[0]!]! : null,
  };
}

/** The forecast of every unit, the project's critical path and each milestone's risk. */
export function forecastProject(input: TForecastInput): TForecast {
  const plan = planStages(input.stages);
  const units = input.units.map((unit) => forecastUnit(unit, plan, input));
  let critical: TForecast['critical'] = null;
  let latest = -Infinity;
  const finishOf = new Map<number, number | null>();
  for (const unit of units) {
    finishOf.set(unit.unit, unit.finish);
    if (unit.finish !== null && unit.finish > latest) {
      latest = unit.finish;
      critical = { unit: unit.unit, stages: unit.criticalPath };
    }
  }
  const milestones = (input.milestones ?? []).map((milestone): TMilestoneForecast => {
    const ids = milestone.units ?? units.map((u) => u.unit);
    let forecast: number | null = null;
    const lateUnits: number[] = [];
    for (const id of ids) {
      const end = finishOf.get(id);
      if (end == null) continue;
      if (forecast === null || end > forecast) forecast = end;
      if (end > milestone.date) lateUnits.push(id);
    }
    return { id: milestone.id, forecast, atRisk: lateUnits.length > 0, lateUnits };
  });
  return { units, milestones, critical };
}
