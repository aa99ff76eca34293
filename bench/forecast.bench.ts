/**
 * Issue 34 item 4: the forecast along the diagram for a whole pipeline (docs/schedule.md,
 * "Forecast"), the pure `forecastProject` of the shared package in Node: `BENCH_UNITS` units × 20
 * stages (10,000 × 20 by default: 200,000 tasks) on a diagram with branches and joins, a mix of
 * statuses, own dates, estimates and stage durations, a workspace calendar with holidays and
 * 50 people with days off. Target: ≤ 500 ms for the whole pipeline, ≤ 20 ms for one unit again
 * after one of its tasks changes (`forecastUnit`).
 *
 * The reference printed beside it, in the same run: one plain pass over the same tasks in the
 * stages' topological order that only adds up their durations (what any forecast must at least
 * touch), and the ratio. Rows give the median and the worst of `BENCH_ROUNDS` rounds (default 7).
 * Run: `npm run bench -- forecast`, or alone: `node --import tsx bench/forecast.bench.ts`.
 */
import { pathToFileURL } from 'node:url';
import { dayOf, isoDay, WorkCalendar } from '../packages/shared/src/domain/calendar';
import {
  forecastProject,
  forecastUnit,
  planStages,
  type TForecastStage,
  type TForecastTask,
  type TForecastUnit,
} from '../packages/shared/src/domain/forecast';

const print = (line: string) => process.stdout.write(`${line}\n`);

const Stages = 20;
const Units = Number(process.env.BENCH_UNITS ?? 10_000);
const Rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const People = 50;
const Statuses = ['todo', 'todo', 'todo', 'in_progress', 'review', 'edit', 'done', 'done'] as const;

/** A small deterministic generator, so every run forecasts the same project. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

export function buildProject(units = Units) {
  const next = random(34);
  const today = dayOf('2026-11-30');
  // Each stage takes the one before it, and one in three also the stage three back: branches and joins.
  const stages: TForecastStage[] = Array.from({ length: Stages }, (_, i) => ({
    id: i + 1,
    inputs: i === 0 ? [] : i % 3 === 0 && i >= 3 ? [i, i - 2] : [i],
    durationDays: i % 4 === 0 ? null : 1 + (i % 5),
  }));
  const holidays = Array.from({ length: 12 }, (_, i) => isoDay(today + 11 + i * 29));
  const daysOff = new Map<number, string[]>();
  for (let p = 1; p <= People; p += 2)
    daysOff.set(
      p,
      Array.from({ length: 10 }, (_, i) => isoDay(today + p + i * 7)),
    );
  const calendar = new WorkCalendar({ workingDays: [1, 2, 3, 4, 5], holidays, daysOff }, today);
  let id = 1;
  const list: TForecastUnit[] = Array.from({ length: units }, (_, u) => ({
    id: u + 1,
    tasks: stages.map((stage): TForecastTask => {
      const own = next() < 0.3;
      const start = own ? today + Math.floor(next() * 60) - 10 : null;
      return {
        id: id++,
        stage: stage.id,
        status: Statuses[Math.floor(next() * Statuses.length)]!,
        start,
        due: own || next() < 0.3 ? (start ?? today) + Math.floor(next() * 30) : null,
        estimateHours: next() < 0.5 ? 4 * (1 + Math.floor(next() * 20)) : null,
        person: next() < 0.8 ? 1 + Math.floor(next() * People) : null,
      };
    }),
  }));
  return { today, calendar, stages, units: list, hoursPerDay: 8 };
}

/** The reference: one pass in topological order adding up each open task's duration. */
function plainPass(project: ReturnType<typeof buildProject>) {
  const plan = planStages(project.stages);
  let total = 0;
  for (const unit of project.units) {
    for (const s of plan.order) {
      const task = unit.tasks[s]!;
      if (task.status !== 'done') total += task.estimateHours ?? plan.durations[s] ?? 1;
    }
  }
  return total;
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

function time(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

export default async function run(): Promise<void> {
  const project = buildProject();
  const plan = planStages(project.stages);
  const forecast: number[] = [];
  const plain: number[] = [];
  const one: number[] = [];
  let late = 0;
  for (let round = 0; round < Rounds; round++) {
    plain.push(time(() => plainPass(project)));
    forecast.push(
      time(() => {
        late = forecastProject(project).units.filter((u) => u.lateBy > 0).length;
      }),
    );
    // One task of one unit changes: its unit alone is forecast again.
    const unit = project.units[(round * 997) % project.units.length]!;
    const changed = { ...unit, tasks: unit.tasks.map((t, i) => (i === 5 ? { ...t, start: project.today + 20 } : t)) };
    one.push(time(() => forecastUnit(changed, plan, project)));
  }
  print(
    `${Units.toLocaleString('en')} units × ${Stages} stages (${(Units * Stages).toLocaleString('en')} tasks), ${late.toLocaleString('en')} units late; ${Rounds} rounds, ms`,
  );
  print('');
  print('| measure | median | worst | target |');
  print('| --- | ---: | ---: | ---: |');
  print(`| forecast, whole pipeline | ${median(forecast).toFixed(1)} | ${Math.max(...forecast).toFixed(1)} | ≤ 500 |`);
  print(`| reference: plain pass over the tasks | ${median(plain).toFixed(1)} | ${Math.max(...plain).toFixed(1)} | |`);
  print(`| ratio forecast / reference | ${(median(forecast) / median(plain)).toFixed(1)}× | | |`);
  print(`| one unit again after a task changes | ${median(one).toFixed(2)} | ${Math.max(...one).toFixed(2)} | ≤ 20 |`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
