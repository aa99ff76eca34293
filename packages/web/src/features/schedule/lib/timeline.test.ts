import { describe, expect, it } from 'vitest';
import { dayOf } from '@stageline/shared';
import { type TForecastTaskDto, type TProjectForecast } from '@stageline/shared/schedule';
import { axisOf, barOf, shiftPatch } from './timeline';

const task = (extra: Partial<TForecastTaskDto> = {}): TForecastTaskDto => ({
  id: 1,
  stage: 10,
  status: 'todo',
  start_date: null,
  due_date: null,
  estimate_hours: null,
  forecast_start: '2026-12-01',
  forecast_finish: '2026-12-03',
  late_by: 0,
  waits_for: null,
  ...extra,
});

describe('the timeline’s bars', () => {
  it('shows own dates when both are set, else completes them with the forecast', () => {
    expect(barOf(task({ start_date: '2026-12-02', due_date: '2026-12-08' }))).toMatchObject({
      start: dayOf('2026-12-02'),
      end: dayOf('2026-12-08'),
      planned: true,
    });
    expect(barOf(task({ due_date: '2026-12-05' }))).toMatchObject({ start: dayOf('2026-12-01'), planned: false });
    // A due date before the forecast start: the forecast is drawn.
    expect(barOf(task({ due_date: '2026-11-20' }))).toMatchObject({
      start: dayOf('2026-12-01'),
      end: dayOf('2026-12-03'),
    });
    expect(barOf(task({ status: 'done', forecast_start: null, forecast_finish: null }))).toBeNull();
    expect(
      barOf(task({ status: 'done', forecast_start: null, forecast_finish: null, due_date: '2026-11-20' })),
    ).toMatchObject({
      start: dayOf('2026-11-20'),
      end: dayOf('2026-11-20'),
    });
  });

  it('moves both ends, resizes the end only, and never ends before the start', () => {
    const bar = barOf(task())!;
    expect(shiftPatch(bar, 7, false)).toEqual({ start_date: '2026-12-08', due_date: '2026-12-10T00:00:00.000Z' });
    expect(shiftPatch(bar, 1, true)).toEqual({ start_date: '2026-12-01', due_date: '2026-12-04T00:00:00.000Z' });
    expect(shiftPatch(bar, -2, true)).toEqual({ start_date: '2026-12-01', due_date: '2026-12-01T00:00:00.000Z' });
    expect(shiftPatch(bar, -3, true)).toBeNull();
    expect(shiftPatch(bar, 0, false)).toBeNull();
  });

  it('covers every bar, milestone and today, with a margin', () => {
    const forecast = {
      today: '2026-11-30',
      units: [{ tasks: [task({ forecast_finish: '2027-01-10' })] }],
      milestones: [{ date: '2026-11-20' }],
    } as unknown as TProjectForecast;
    expect(axisOf(forecast)).toEqual({ first: dayOf('2026-11-17'), last: dayOf('2027-01-13') });
  });
});
