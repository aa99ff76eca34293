import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayOf, isoDay, isoWeekday, WorkCalendar } from './calendar';
import { ForecastCycleError, forecastProject, type TForecastStage, type TForecastTask } from './forecast';

/** The calendar and the forecast along the diagram (docs/schedule.md), on hand-made and random pipelines. */

const monday = dayOf('2026-11-30');
const weekdays = new WorkCalendar({ workingDays: [1, 2, 3, 4, 5] }, monday);

describe('the calendar', () => {
  it('counts day numbers and weekdays in UTC', () => {
    expect(isoDay(dayOf('2026-11-30'))).toBe('2026-11-30');
    expect(dayOf('2026-11-30T23:30:00+00:00')).toBe(monday);
    expect(isoWeekday(monday)).toBe(1);
    expect(isoWeekday(dayOf('1970-01-01'))).toBe(4);
  });

  it('skips weekends, holidays and a person’s days off', () => {
    const calendar = new WorkCalendar(
      { workingDays: [1, 2, 3, 4, 5], holidays: ['2026-12-01'], daysOff: new Map([[7, ['2026-12-02']]]) },
      monday,
    );
    expect(calendar.isWorking(monday)).toBe(true);
    expect(calendar.isWorking(monday + 1)).toBe(false); // the holiday
    expect(calendar.isWorking(monday + 2)).toBe(true);
    expect(calendar.isWorking(monday + 2, 7)).toBe(false); // person 7's day off
    expect(calendar.finishOf(monday, 3)).toBe(monday + 3); // Mon, Wed, Thu
    expect(calendar.finishOf(monday, 3, 7)).toBe(monday + 4); // Mon, Thu, Fri
    expect(calendar.onOrAfter(monday - 2)).toBe(monday); // Saturday → Monday
    expect(calendar.between(monday, monday + 6)).toBe(4);
  });

  it('reads an empty list of working days as every day, far from its centre too', () => {
    const always = new WorkCalendar({ workingDays: [] }, monday);
    expect(always.finishOf(monday + 50_000, 3)).toBe(monday + 50_002);
    expect(weekdays.isWorking(monday + 70_000)).toBe(isoWeekday(monday + 70_000) <= 5);
  });
});

/** Rigging → Animation ← Layout; Animation → Lighting (ids 1…4). */
const stages: TForecastStage[] = [
  { id: 1, inputs: [], durationDays: 3 },
  { id: 2, inputs: [], durationDays: 1 },
  { id: 3, inputs: [1, 2], durationDays: 2 },
  { id: 4, inputs: [3], durationDays: null },
];
const task = (stage: number, extra: Partial<TForecastTask> = {}): TForecastTask => ({
  id: 100 + stage,
  stage,
  status: 'todo',
  start: null,
  due: null,
  estimateHours: null,
  person: null,
  ...extra,
});

describe('the forecast along the diagram', () => {
  const base = { today: monday, hoursPerDay: 8, calendar: weekdays, stages };

  it('starts each task the working day after its last input and follows the critical path', () => {
    const { units, critical } = forecastProject({
      ...base,
      units: [{ id: 1, tasks: [1, 2, 3, 4].map((s) => task(s)) }],
    });
    const unit = units[0]!;
    const at = (stage: number) => unit.tasks.find((t) => t.stage === stage)!;
    expect([at(1).start, at(1).finish]).toEqual([monday, monday + 2]); // Mon–Wed
    expect([at(2).start, at(2).finish]).toEqual([monday, monday]);
    expect([at(3).start, at(3).finish]).toEqual([monday + 3, monday + 4]); // Thu–Fri, after Rigging
    expect(at(3).waitsFor).toBe(1);
    expect([at(4).start, at(4).finish]).toEqual([monday + 7, monday + 7]); // next Monday, one day
    expect(unit.finish).toBe(monday + 7);
    expect(unit.criticalPath).toEqual([1, 3, 4]);
    expect(critical).toEqual({ unit: 1, stages: [1, 3, 4] });
    expect(unit.lateBy).toBe(0);
    expect(unit.waitingOn).toBeNull();
  });

  it('names the late task and the stage it waits on; done tasks hold nothing up', () => {
    const tasks = [
      task(1, { estimateHours: 40 }), // five working days: Mon–Fri
      task(2, { status: 'done' }),
      task(3),
      task(4, { due: monday + 7 }), // due next Monday, forecast Wednesday
    ];
    const { units, milestones } = forecastProject({
      ...base,
      units: [
        { id: 1, tasks },
        {
          id: 2,
          tasks: [
            task(1, { status: 'done' }),
            task(2, { status: 'done' }),
            task(3, { status: 'done' }),
            task(4, { status: 'done' }),
          ],
        },
      ],
      milestones: [
        { id: 9, date: monday + 8, units: null },
        { id: 10, date: monday + 11, units: [1] },
        { id: 11, date: monday, units: [2] },
      ],
    });
    const [late, done] = units;
    expect(late!.finish).toBe(monday + 9);
    expect(late!.lateBy).toBe(2);
    expect(late!.lateStage).toBe(4);
    expect(late!.waitingOn).toBe(1);
    expect(done!.finish).toBeNull();
    expect(done!.tasks).toEqual([]);
    expect(milestones).toEqual([
      { id: 9, forecast: monday + 9, atRisk: true, lateUnits: [1] },
      { id: 10, forecast: monday + 9, atRisk: false, lateUnits: [] },
      { id: 11, forecast: null, atRisk: false, lateUnits: [] },
    ]);
  });

  it('keeps a task’s own start and dates, and a started task ends no earlier than today', () => {
    const { units } = forecastProject({
      ...base,
      units: [
        {
          id: 1,
          tasks: [
            task(1, { status: 'in_progress', start: monday - 7, due: monday - 3 }), // last week Mon–Fri, still open today: late
            task(2, { start: monday + 2 }),
            task(3, { start: monday + 3, due: monday + 7 }), // Thu → Mon: 3 working days
          ],
        },
      ],
    });
    const unit = units[0]!;
    const at = (stage: number) => unit.tasks.find((t) => t.stage === stage)!;
    expect(at(1)).toMatchObject({ start: monday - 7, finish: monday, lateBy: 1, waitsFor: null });
    expect(at(2)).toMatchObject({ start: monday + 2, finish: monday + 2, waitsFor: null });
    // Layout ends on Wednesday, so Thursday is its input's day as well as its own: the input decides.
    expect(at(3)).toMatchObject({ start: monday + 3, finish: monday + 7, waitsFor: 2 });
    expect(unit.waitingOn).toBe(1);
  });

  it('refuses a cycle', () => {
    const cyclic = [
      { id: 1, inputs: [2], durationDays: 1 },
      { id: 2, inputs: [1], durationDays: 1 },
    ];
    expect(() => forecastProject({ ...base, stages: cyclic, units: [] })).toThrow(ForecastCycleError);
  });

  it('holds its invariants on random pipelines and statuses', () => {
    const arbitrary = fc.integer({ min: 1, max: 8 }).chain((n) =>
      fc.record({
        inputs: fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }), {
          minLength: n,
          maxLength: n,
        }),
        durations: fc.array(fc.option(fc.integer({ min: 0, max: 6 })), { minLength: n, maxLength: n }),
        tasks: fc.array(
          fc.record({
            status: fc.constantFrom('todo', 'in_progress', 'review', 'edit', 'done' as const),
            start: fc.option(fc.integer({ min: -10, max: 20 })),
            due: fc.option(fc.integer({ min: -10, max: 30 })),
            estimate: fc.option(fc.integer({ min: 1, max: 60 })),
          }),
          { minLength: n, maxLength: n },
        ),
        holidays: fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 5 }),
      }),
    );
    fc.assert(
      fc.property(arbitrary, ({ inputs, durations, tasks, holidays }) => {
        // Inputs only from lower indexes: a diagram without cycles.
        const stageList = inputs.map((list, i) => ({
          id: i + 1,
          inputs: [...new Set(list.filter((j) => j < i).map((j) => j + 1))],
          durationDays: durations[i]!,
        }));
        const calendar = new WorkCalendar(
          { workingDays: [1, 2, 3, 4, 5], holidays: holidays.map((d) => isoDay(monday + d)) },
          monday,
        );
        const unitTasks = tasks.map((t, i) =>
          task(i + 1, {
            status: t.status,
            start: t.start === null ? null : monday + t.start,
            due: t.due === null ? null : monday + t.due,
            estimateHours: t.estimate,
          }),
        );
        const unit = forecastProject({
          today: monday,
          hoursPerDay: 8,
          calendar,
          stages: stageList,
          units: [{ id: 1, tasks: unitTasks }],
        }).units[0]!;
        const by = new Map(unit.tasks.map((t) => [t.stage, t]));
        for (const forecast of unit.tasks) {
          const stage = stageList[forecast.stage - 1]!;
          const own = unitTasks[forecast.stage - 1]!;
          expect(calendar.isWorking(forecast.start) || own.status !== 'todo').toBe(true);
          expect(calendar.isWorking(forecast.finish)).toBe(true);
          expect(forecast.finish).toBeGreaterThanOrEqual(forecast.start);
          expect(forecast.finish).toBeGreaterThanOrEqual(monday);
          if (own.status === 'todo') {
            // Never before today, never before an open input finishes.
            expect(forecast.start).toBeGreaterThanOrEqual(monday);
            for (const input of stage.inputs) {
              const before = by.get(input);
              if (before) expect(forecast.start).toBeGreaterThan(before.finish);
            }
          }
          expect(forecast.lateBy > 0).toBe(own.due !== null && forecast.finish > own.due);
        }
        const open = unit.tasks.map((t) => t.finish);
        expect(unit.finish).toBe(open.length > 0 ? Math.max(...open) : null);
        if (unit.criticalPath.length > 0) {
          expect(by.get(unit.criticalPath.at(-1)!)!.finish).toBe(unit.finish);
          for (let i = 1; i < unit.criticalPath.length; i++)
            expect(by.get(unit.criticalPath[i]!)!.waitsFor).toBe(unit.criticalPath[i - 1]);
        }
        expect(unit.waitingOn === null).toBe(unit.lateBy === 0);
      }),
      { numRuns: 300 },
    );
  });
});
