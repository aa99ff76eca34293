/**
 * Issue 34 item 5: workload for 200 people × 26 weeks (docs/schedule.md, "Workload"): the pure
 * `computeWorkload` of the shared package in Node, over `BENCH_TASKS` open tasks (20,000 by
 * default) with estimates, one to three assignees, dates spread over half a year, a calendar with
 * holidays and days off for half the people. Target: ≤ 300 ms. The reference printed beside it, in
 * the same run: a plain pass adding each task's estimate to its people (what any workload must at
 * least touch). Rows give the median and the worst of `BENCH_ROUNDS` rounds (default 7).
 * Run: `npm run bench -- workload`, or alone: `node --import tsx bench/workload.bench.ts`.
 */
import { pathToFileURL } from 'node:url';
import { dayOf, isoDay, WorkCalendar } from '../packages/shared/src/domain/calendar';
import { computeWorkload, mondayOf, type TWorkloadTask } from '../packages/shared/src/domain/workload';

const print = (line: string) => process.stdout.write(`${line}\n`);

const People = 200;
const Weeks = 26;
const Tasks = Number(process.env.BENCH_TASKS ?? 20_000);
const Rounds = Number(process.env.BENCH_ROUNDS ?? 7);

function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

export function buildWorkload() {
  const next = random(35);
  const today = dayOf('2026-11-30');
  const people = Array.from({ length: People }, (_, i) => i + 1);
  const daysOff = new Map<number, string[]>();
  for (let p = 1; p <= People; p += 2)
    daysOff.set(
      p,
      Array.from({ length: 8 }, (_, i) => isoDay(today + p + i * 11)),
    );
  const calendar = new WorkCalendar(
    {
      workingDays: [1, 2, 3, 4, 5],
      holidays: Array.from({ length: 6 }, (_, i) => isoDay(today + 17 + i * 31)),
      daysOff,
    },
    today,
  );
  const tasks: TWorkloadTask[] = Array.from({ length: Tasks }, (_, id) => {
    const start = next() < 0.6 ? today + Math.floor(next() * 170) : null;
    const count = 1 + Math.floor(next() * 3);
    return {
      id,
      people: Array.from({ length: count }, () => 1 + Math.floor(next() * People)),
      estimateHours: 2 + Math.floor(next() * 80),
      start,
      due: next() < 0.7 ? (start ?? today) + Math.floor(next() * 25) : null,
    };
  });
  return { people, tasks, calendar, hoursPerDay: 8, today, firstWeek: mondayOf(today), weeks: Weeks };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;
function time(work: () => unknown): number {
  const started = performance.now();
  work();
  return performance.now() - started;
}

export default async function run(): Promise<void> {
  const input = buildWorkload();
  const workload: number[] = [];
  const plain: number[] = [];
  let over = 0;
  for (let round = 0; round < Rounds; round++) {
    plain.push(
      time(() => {
        const sums = new Map<number, number>();
        for (const task of input.tasks)
          for (const person of task.people) sums.set(person, (sums.get(person) ?? 0) + (task.estimateHours ?? 0));
      }),
    );
    workload.push(
      time(() => {
        over = 0;
        for (const cells of computeWorkload(input).values()) over += cells.filter((c) => c.hours > c.capacity).length;
      }),
    );
  }
  print(
    `${People} people × ${Weeks} weeks, ${Tasks.toLocaleString('en')} open tasks, ${over} cells over capacity; ${Rounds} rounds, ms`,
  );
  print('');
  print('| measure | median | worst | target |');
  print('| --- | ---: | ---: | ---: |');
  print(`| workload | ${median(workload).toFixed(1)} | ${Math.max(...workload).toFixed(1)} | ≤ 300 |`);
  print(
    `| reference: plain pass adding estimates | ${median(plain).toFixed(1)} | ${Math.max(...plain).toFixed(1)} | |`,
  );
  print(`| ratio workload / reference | ${(median(workload) / median(plain)).toFixed(1)}× | | |`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await run();
