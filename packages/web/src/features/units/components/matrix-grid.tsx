import { Center, Loader, Stack } from '@mantine/core';
import { IconSitemap } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, TaskStatusLabels } from '@stageline/shared';
import { fitColumns } from '../lib/fit-columns';
import type { TGridRow } from '../lib/whole-matrix';
import { StatusCell, type TCellContext, type TPeople, type TStage } from './matrix-cell';
import classes from './matrix.module.css';
import { LoadError, type TRetryable } from '../../../shared/ui/load-error';

const RowHeight = 36;
const nobody: TPeople = new Map();

/**
 * The columns in view: their stages, and the blank widths standing in for the columns before and
 * after; with the name column's and each stage column's width (sized to the grid, decision 203).
 */
type TColumns = {
  stages: TStage[];
  first: number;
  before: number;
  after: number;
  name: number;
  cell: number;
  fields: readonly TFieldColumn[];
};

/** A custom field drawn as a column after the unit's name (docs/custom-fields.md). */
export type TFieldColumn = { key: string; name: string; render: (row: TGridRow) => React.ReactNode };
/** Width of a custom field's column. */
export const FieldColumnWidth = 130;

const MatrixRow = memo(function MatrixRow({
  row,
  columns,
  projectId,
  pipelineId,
  context,
}: {
  row: TGridRow | undefined;
  columns: TColumns;
  projectId: number;
  pipelineId: number;
  context: TCellContext;
}) {
  return (
    <>
      <div
        className={classes.nameCell}
        style={{ width: columns.name }}
        role="rowheader"
        aria-colindex={1}
        tabIndex={-1}
      >
        {row ? (
          <>
            <a
              href={paths.app.unit(projectId, row.id)}
              title={row.name}
              className={classes.unitLink}
              tabIndex={-1}
              data-testid="matrix-unit-link"
            >
              {row.name}
            </a>
            <a
              href={`${paths.app.pipeline(projectId, pipelineId)}?unit=${row.id}`}
              className={classes.onPipeline}
              aria-label={context.words.onPipeline}
              title={context.words.onPipeline}
              tabIndex={-1}
              data-testid="matrix-unit-pipeline"
            >
              <IconSitemap size={14} />
            </a>
          </>
        ) : (
          <div className={classes.placeholder} style={{ width: '70%', height: 12 }} />
        )}
      </div>
      {columns.fields.map((field) => (
        <div
          key={field.key}
          className={classes.fieldCell}
          style={{ width: FieldColumnWidth }}
          data-testid="matrix-field"
          data-key={field.key}
        >
          {row ? field.render(row) : null}
        </div>
      ))}
      <div className={classes.spacer} style={{ width: columns.before }} />
      {columns.stages.map((stage, index) => (
        <div
          key={stage.id}
          className={classes.cellWrap}
          style={{ width: columns.cell }}
          role="gridcell"
          aria-colindex={columns.first + index + 2}
          tabIndex={-1}
        >
          {row ? (
            <StatusCell task={row.cells[columns.first + index] ?? undefined} stage={stage} context={context} />
          ) : (
            <div className={classes.placeholder} />
          )}
        </div>
      ))}
      <div className={classes.spacer} style={{ width: columns.after }} />
    </>
  );
});

const arrowMoves: Record<string, readonly [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

const noFields: readonly TFieldColumn[] = [];

/** Whether a click is a plain one that the app should handle (not a new tab or window). */
const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/** What the grid draws, wherever its rows come from (docs/decisions.md, entry 98). */
export type TMatrixGridProps = {
  projectId: number;
  pipelineId: number;
  empty: React.ReactNode;
  /** Names by user id, for the assignees' avatars in the cells. */
  people?: TPeople;
  state: 'pending' | 'error' | 'ready';
  /** What "Try again" asks again when the state is 'error'. */
  retry: TRetryable;
  count: number;
  stages: readonly TStage[];
  rowAt: (index: number) => TGridRow | undefined;
  /** Told the first and last row index in view (with overscan) when they change. */
  onRows?: (from: number, to: number) => void;
  /** Custom fields shown as columns after the unit's name. */
  fieldColumns?: readonly TFieldColumn[];
};

/**
 * The grid itself: only the rows and the stage columns in view are drawn (@tanstack/react-virtual,
 * one virtualizer each way); columns come in the server's flow order (`flowOrder`). The header row
 * and the name column stay in place. One click handler for every link; arrow keys move between cells.
 */
export function MatrixGrid({
  projectId,
  pipelineId,
  empty,
  people = nobody,
  state,
  retry,
  count,
  stages,
  rowAt,
  onRows,
  fieldColumns = noFields,
}: TMatrixGridProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const scroller = useRef<HTMLDivElement>(null);
  // The grid's inner width: the stage columns share it (decision 203). Before the first measure
  // (and in tests without layout), a wide screen's.
  const [gridWidth, setGridWidth] = useState(1200);
  const drawn = state === 'ready' && count > 0;
  useEffect(() => {
    const grid = scroller.current;
    if (!drawn || !grid) return;
    const measure = () => setGridWidth(grid.clientWidth || 1200);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(grid);
    return () => observer.disconnect();
  }, [drawn]);
  const fieldsWidth = fieldColumns.length * FieldColumnWidth;
  const { name: nameWidth, cell: cellWidth } = fitColumns(gridWidth - fieldsWidth, stages.length);
  const context = useMemo<TCellContext>(
    () => ({
      people,
      labels: Object.fromEntries(
        Object.entries(TaskStatusLabels).map(([status, label]) => [status, t(label)]),
      ) as TCellContext['labels'],
      words: { ready: t('Ready'), overdue: t('Overdue'), onPipeline: t('Show on the pipeline') },
      files: (count: number) => t('{{count}} file', { count }),
    }),
    [people, t],
  );

  // The virtualizer re-renders this component on scroll by design; nothing here is memoized by a compiler.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => RowHeight,
    overscan: 12,
    // Before the first measure (and in tests without layout), assume a screenful.
    initialRect: { width: 1200, height: 600 },
  });
  const columnVirtualizer = useVirtualizer({
    horizontal: true,
    count: stages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => cellWidth,
    // The sticky name column comes first: column offsets start after it.
    paddingStart: nameWidth + fieldsWidth,
    overscan: 3,
    initialRect: { width: 1200, height: 600 },
  });
  // New widths (a resize, another pipeline): the column virtualizer measures again.
  useEffect(() => columnVirtualizer.measure(), [columnVirtualizer, nameWidth, cellWidth, fieldsWidth]);
  const visibleColumns = columnVirtualizer.getVirtualItems();
  const firstColumn = visibleColumns[0]?.index ?? 0;
  const endColumn = (visibleColumns[visibleColumns.length - 1]?.index ?? -1) + 1;
  // One object per range of columns, so rows (memoized) redraw on a horizontal scroll only.
  const columns = useMemo<TColumns>(
    () => ({
      stages: stages.slice(firstColumn, endColumn),
      first: firstColumn,
      before: firstColumn * cellWidth,
      after: (stages.length - endColumn) * cellWidth,
      name: nameWidth,
      cell: cellWidth,
      fields: fieldColumns,
    }),
    [stages, firstColumn, endColumn, nameWidth, cellWidth, fieldColumns],
  );
  const items = virtualizer.getVirtualItems();
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items[items.length - 1]?.index ?? 0;
  useEffect(() => onRows?.(firstRow, lastRow), [onRows, firstRow, lastRow]);

  /** One handler for every link of the grid: a plain click navigates inside the app. */
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!link || !plainClick(event)) return;
    event.preventDefault();
    void navigate(link.getAttribute('href')!);
  };

  /** Arrow keys move between cells (rows and columns scroll into view first when not drawn). */
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const move = arrowMoves[event.key];
    const grid = scroller.current;
    if (!move || !grid) return;
    event.preventDefault();
    const cell = document.activeElement?.closest('[aria-colindex]');
    const rowElement = cell?.closest('[data-index]');
    const row = rowElement ? Number(rowElement.getAttribute('data-index')) + move[0] : (items[0]?.index ?? 0);
    const column = cell ? Number(cell.getAttribute('aria-colindex')) + move[1] : 1;
    const target = {
      row: Math.min(Math.max(row, 0), count - 1),
      column: Math.min(Math.max(column, 1), stages.length + 1),
    };
    const focus = () => {
      const found = grid.querySelector<HTMLElement>(`[data-index="${target.row}"] [aria-colindex="${target.column}"]`);
      if (!found) return false;
      (found.querySelector<HTMLElement>('a[href]') ?? found).focus();
      return true;
    };
    if (focus()) return;
    virtualizer.scrollToIndex(target.row);
    if (target.column > 1) columnVirtualizer.scrollToIndex(target.column - 2);
    requestAnimationFrame(() => requestAnimationFrame(() => void focus()));
  };

  if (state === 'pending')
    return (
      <Center mih={300} data-testid="matrix-loading">
        <Loader />
      </Center>
    );
  if (state === 'error') return <LoadError retry={retry} testId="matrix-error" />;
  if (count === 0)
    return (
      <Stack align="center" py="xl" data-testid="matrix" data-count={0}>
        {empty}
      </Stack>
    );

  const width = nameWidth + fieldsWidth + stages.length * cellWidth;
  return (
    <div
      ref={scroller}
      className={classes.scroller}
      data-testid="matrix"
      data-count={count}
      role="grid"
      aria-rowcount={count + 1}
      aria-colcount={stages.length + 1}
      aria-label={t('Units')}
      tabIndex={0}
      onClick={onClick}
      onKeyDown={onKeyDown}
    >
      <div style={{ width, minWidth: '100%' }}>
        <div className={classes.header} role="row" aria-rowindex={1}>
          <div className={classes.corner} style={{ width: nameWidth }} role="columnheader">
            {t('Unit')}
          </div>
          {fieldColumns.map((field) => (
            <div
              key={field.key}
              className={classes.headCell}
              style={{ width: FieldColumnWidth }}
              title={field.name}
              role="columnheader"
              data-testid="matrix-field-head"
            >
              {field.name}
            </div>
          ))}
          <div className={classes.spacer} style={{ width: columns.before }} />
          {columns.stages.map((stage) => (
            <div
              key={stage.id}
              className={classes.headCell}
              style={{ width: cellWidth }}
              title={stage.name}
              role="columnheader"
              data-testid="matrix-stage"
              data-stage-id={stage.id}
            >
              {stage.name}
            </div>
          ))}
          <div className={classes.spacer} style={{ width: columns.after }} />
        </div>
        <div className={classes.body} style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rowAt(item.index);
            return (
              <div
                key={item.key}
                className={classes.row}
                style={{ height: RowHeight, transform: `translateY(${item.start}px)`, width }}
                role="row"
                aria-rowindex={item.index + 2}
                data-testid="matrix-row"
                data-index={item.index}
                data-unit-id={row?.id}
              >
                <MatrixRow
                  row={row}
                  columns={columns}
                  projectId={projectId}
                  pipelineId={pipelineId}
                  context={context}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
