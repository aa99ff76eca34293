import { Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { dayOf, isoDay } from '@stageline/shared';
import { type TForecastUnitDto, type TProjectForecast } from '@stageline/shared/schedule';
import { ApiError, shownByTransport } from '../../../shared/api/client';
import { showToast } from '../../../shared/ui/toast';
import { moveTask } from '../api';
import { axisOf, barOf, DayWidth, shiftPatch, type TBar } from '../lib/timeline';
import classes from './timeline.module.css';

/**
 * The timeline (docs/schedule.md, "Timeline"; decision 235): units as rows, each unit's tasks as
 * bars on a day axis in the stages' order (bars that overlap take the next lane), today's line,
 * milestones, late units flagged with the forecast's reason. Rows are virtualized with TanStack
 * Virtual like the matrix. Those who may plan drag a bar to move it, its end to resize it, or
 * select it and press the arrows (a day), Shift+arrows (its length); each change is announced.
 */

/** The unit names' column: narrower on a phone, so the days stay in view. */
const NameWidths = { wide: 240, narrow: 128 };
const LaneHeight = 24;
const RowPadding = 8;
const HeaderHeight = 44;

type TRow = { unit: TForecastUnitDto; bars: (TBar & { lane: number })[]; lanes: number };

/** Bars of a unit in stage order, each in the first lane where it overlaps nothing. */
function rowOf(unit: TForecastUnitDto): TRow {
  const ends: number[] = [];
  const bars: TRow['bars'] = [];
  for (const task of unit.tasks) {
    const bar = barOf(task);
    if (!bar) continue;
    let lane = ends.findIndex((end) => end < bar.start);
    if (lane < 0) lane = ends.push(bar.end) - 1;
    else ends[lane] = bar.end;
    bars.push({ ...bar, lane });
  }
  return { unit, bars, lanes: Math.max(1, ends.length) };
}

const heightOf = (row: TRow) => row.lanes * LaneHeight + RowPadding;

type TDrag = { task: number; resize: boolean; x: number; days: number };

export function Timeline({
  projectId,
  forecast,
  canPlan,
}: {
  projectId: number;
  forecast: TProjectForecast;
  canPlan: boolean;
}) {
  const { t, i18n } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const nameWidth = useMediaQuery('(max-width: 36em)') ? NameWidths.narrow : NameWidths.wide;
  const [message, setMessage] = useState('');
  const [drag, setDrag] = useState<TDrag | null>(null);
  const announce = useCallback(
    (text: string) => setMessage((previous) => (previous === text ? `${text}\u00a0` : text)),
    [],
  );
  const rows = useMemo(() => forecast.units.map(rowOf), [forecast.units]);
  const { first, last } = useMemo(() => axisOf(forecast), [forecast]);
  const stageNames = useMemo(() => new Map(forecast.stages.map((s) => [s.id, s.name])), [forecast.stages]);
  const format = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
    [i18n.language],
  );
  const dateOf = (day: number) => format.format(new Date(`${isoDay(day)}T00:00:00Z`));
  const days = last - first + 1;
  const width = nameWidth + days * DayWidth;
  const x = (day: number) => nameWidth + (day - first) * DayWidth;
  const today = dayOf(forecast.today);

  // The virtualizer re-renders this component on scroll by design; nothing here is memoized by a compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => heightOf(rows[index]!),
    overscan: 8,
    initialRect: { width: 1200, height: 600 },
  });

  const labelOf = (unit: TForecastUnitDto, bar: TBar) =>
    t('{{unit}} · {{stage}}: {{start}} – {{end}}', {
      unit: unit.name,
      stage: stageNames.get(bar.stage) ?? '',
      start: dateOf(bar.start),
      end: dateOf(bar.end),
    });

  const lateText = (unit: TForecastUnitDto) =>
    t('Late by {{count}} working day, waiting on {{stage}}', {
      count: unit.late_by,
      stage: stageNames.get(unit.waiting_on ?? 0) ?? '',
    });

  const save = async (unit: TForecastUnitDto, bar: TBar, shift: number, resize: boolean) => {
    const patch = shiftPatch(bar, shift, resize);
    if (!patch) return;
    const moved = { ...bar, start: dayOf(patch.start_date), end: dayOf(patch.due_date) };
    const name = `${unit.name} · ${stageNames.get(bar.stage) ?? ''}`;
    announce(
      resize
        ? t('{{name}} now ends on {{end}}', { name, end: dateOf(moved.end) })
        : t('{{name}} moved to {{start}} – {{end}}', { name, start: dateOf(moved.start), end: dateOf(moved.end) }),
    );
    try {
      await moveTask(projectId, bar.task, patch);
    } catch (error) {
      if (shownByTransport(error)) return;
      const fields = error instanceof ApiError ? Object.values(error.fields ?? {}).flat() : [];
      const text = fields[0] ?? (error instanceof Error ? error.message : t('Something went wrong'));
      showToast({ kind: 'error', message: text });
      announce(text);
    }
  };

  const onKeyDown = (unit: TForecastUnitDto, bar: TBar) => (event: KeyboardEvent<HTMLElement>) => {
    if (!canPlan || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
    event.preventDefault();
    void save(unit, bar, event.key === 'ArrowRight' ? 1 : -1, event.shiftKey);
  };

  const onPointerDown = (bar: TBar) => (event: PointerEvent<HTMLElement>) => {
    if (!canPlan || event.button !== 0) return;
    const resize = event.target instanceof Element && event.target.hasAttribute('data-resize');
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ task: bar.task, resize, x: event.clientX, days: 0 });
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    if (!drag) return;
    const shift = Math.round((event.clientX - drag.x) / DayWidth);
    if (shift !== drag.days) setDrag({ ...drag, days: shift });
  };
  const onPointerUp = (unit: TForecastUnitDto, bar: TBar) => () => {
    if (!drag) return;
    const { days: shift, resize } = drag;
    setDrag(null);
    if (shift !== 0) void save(unit, bar, shift, resize);
  };

  const ticks = useMemo(() => Array.from({ length: days }, (_, i) => first + i), [first, days]);
  const items = virtualizer.getVirtualItems();
  const total = virtualizer.getTotalSize();

  return (
    <>
      <div
        ref={scroller}
        className={classes.scroller}
        data-testid="schedule-timeline"
        data-count={rows.length}
        role="region"
        aria-label={t('Schedule')}
      >
        <div style={{ width, height: total + HeaderHeight, position: 'relative' }}>
          <div className={classes.header} style={{ width, height: HeaderHeight }}>
            <div className={classes.corner} style={{ width: nameWidth }}>
              {t('Units')}
            </div>
            {ticks.map((day) => (
              <div
                key={day}
                className={classes.tick}
                data-weekend={new Date(day * 86_400_000).getUTCDay() % 6 === 0 || undefined}
                style={{ left: x(day), width: DayWidth }}
                title={dateOf(day)}
              >
                {new Date(day * 86_400_000).getUTCDate()}
              </div>
            ))}
            {forecast.milestones.map((milestone) => (
              <div
                key={milestone.id}
                className={classes.milestone}
                data-risk={milestone.at_risk || undefined}
                style={{ left: x(dayOf(milestone.date)) }}
                data-testid={`schedule-milestone-${milestone.id}`}
                title={t('Milestone {{name}}, {{date}}', { name: milestone.name, date: dateOf(dayOf(milestone.date)) })}
              >
                ◆ {milestone.name}
                {milestone.at_risk ? ` · ${t('at risk')}` : ''}
              </div>
            ))}
          </div>
          <div
            className={classes.today}
            style={{ left: x(today) + DayWidth / 2, top: HeaderHeight, height: total }}
            data-testid="schedule-today"
            aria-hidden
          />
          {forecast.milestones.map((milestone) => (
            <div
              key={milestone.id}
              className={classes.milestoneLine}
              data-risk={milestone.at_risk || undefined}
              style={{ left: x(dayOf(milestone.date)) + DayWidth - 1, top: HeaderHeight, height: total }}
              aria-hidden
            />
          ))}
          {items.map((item) => {
            const row = rows[item.index]!;
            const { unit } = row;
            return (
              <div
                key={unit.id}
                data-index={item.index}
                className={classes.row}
                style={{ top: HeaderHeight + item.start, height: item.size, width }}
                data-testid={`schedule-row-${unit.id}`}
              >
                <div className={classes.name} style={{ width: nameWidth }}>
                  <Text size="sm" fw={500} truncate>
                    {unit.name}
                  </Text>
                  {unit.late_by > 0 ? (
                    <Text size="xs" c="red" truncate data-testid={`schedule-late-${unit.id}`} title={lateText(unit)}>
                      {lateText(unit)}
                    </Text>
                  ) : null}
                </div>
                {row.bars.map((bar) => {
                  const dragging = drag?.task === bar.task ? drag : null;
                  const start = bar.start + (dragging && !dragging.resize ? dragging.days : 0);
                  const end = Math.max(start, bar.end + (dragging ? dragging.days : 0));
                  return (
                    <div
                      key={bar.task}
                      role="button"
                      tabIndex={0}
                      aria-roledescription={t('Task bar')}
                      aria-label={labelOf(unit, { ...bar, start, end })}
                      aria-disabled={!canPlan || undefined}
                      className={classes.bar}
                      data-late={bar.late > 0 || undefined}
                      data-planned={bar.planned || undefined}
                      data-critical={unit.critical_path.includes(bar.stage) || undefined}
                      data-testid={`schedule-bar-${bar.task}`}
                      data-start={isoDay(start)}
                      data-end={isoDay(end)}
                      style={{
                        left: x(start) + 1,
                        width: (end - start + 1) * DayWidth - 2,
                        top: RowPadding / 2 + bar.lane * LaneHeight,
                        height: LaneHeight - 4,
                      }}
                      onKeyDown={onKeyDown(unit, bar)}
                      onPointerDown={onPointerDown(bar)}
                      onPointerMove={onPointerMove}
                      onPointerUp={onPointerUp(unit, bar)}
                    >
                      <span className={classes.barLabel}>{stageNames.get(bar.stage)}</span>
                      {canPlan ? <span className={classes.handle} data-resize aria-hidden /> : null}
                    </div>
                  );
                })}
              </div>
            );
          })}
        </div>
      </div>
      <VisuallyHidden aria-live="polite" aria-atomic="true" role="status" data-testid="schedule-announcer">
        {message}
      </VisuallyHidden>
    </>
  );
}
