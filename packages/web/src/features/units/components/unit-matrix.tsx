import { Avatar, Center, Loader, Stack, Text } from '@mantine/core';
import { IconAlarm, IconPaperclip, IconSitemap } from '@tabler/icons-react';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, showsReady, TaskStatusLabels, type TMatrixPage, type TTaskCell } from '@stageline/shared';
import { useCurrentUser } from '../../auth';
import { statusChipStyle } from '../../../shared/ui/status-colors';
import { matrixPageQueryOptions, wholeMatrixQueryOptions, type TMatrixFilter } from '../api';
import { gridRow, selectUnits, type TGridRow } from '../lib/whole-matrix';
import classes from './matrix.module.css';

/** Rows per request: small enough to answer fast, big enough that a screen needs one or two. */
export const MatrixPageSize = 100;
const RowHeight = 36;
const NameWidth = 240;
const CellWidth = 132;

const noStages: TMatrixPage['stages'] = [];
type TStage = TMatrixPage['stages'][number];

/** Names of the workspace's people by id: the matrix's cells carry assignee ids only. */
export type TPeople = ReadonlyMap<number, string>;
const nobody: TPeople = new Map();
/** Avatars shown in a cell before a "+n". */
const CellAvatars = 2;

/** A cell's assignees as initials (Mantine's colour of their name), at most two and a "+n". */
function Assignees({ ids, people }: { ids: readonly number[]; people: TPeople }) {
  const named = ids.map((id) => people.get(id)).filter((name): name is string => !!name);
  if (named.length === 0) return null;
  const extra = named.length - CellAvatars;
  return (
    <Avatar.Group spacing={6} className={classes.avatars} data-testid="matrix-cell-assignees">
      {named.slice(0, CellAvatars).map((name) => (
        <Avatar key={name} name={name} color="initials" size={20} alt={name} title={name} />
      ))}
      {extra > 0 ? <Avatar size={20}>+{extra}</Avatar> : null}
    </Avatar.Group>
  );
}

/** What every cell needs that does not change from cell to cell: translated words, the people. */
type TCellContext = {
  people: TPeople;
  labels: Record<TTaskCell['status'], string>;
  words: { ready: string; overdue: string; onPipeline: string };
  /** "3 files", for the paperclip's label. */
  files: (count: number) => string;
};

/**
 * One cell: a plain link (no router component, no hooks) that the grid's one click handler turns
 * into an in-app navigation; a middle click or Ctrl+click still opens a tab. Ready and overdue are
 * classes; only the stage and the status are data attributes (docs/decisions.md, "Web speed").
 */
function StatusCell({ task, stage, context }: { task: TTaskCell | undefined; stage: TStage; context: TCellContext }) {
  if (!task) return <span className={classes.empty}>—</span>;
  const label = context.labels[task.status];
  const ready = showsReady(task.status, task.ready);
  const names = task.assignees.length ? task.assignees.map((id) => context.people.get(id)).filter(Boolean) : [];
  const title = [
    stage.name,
    label,
    ready ? context.words.ready : null,
    task.overdue ? context.words.overdue : null,
    task.files > 0 ? context.files(task.files) : null,
  ]
    .concat(names.length ? [names.join(', ')] : [])
    .filter(Boolean)
    .join(' · ');
  let className = classes.cell;
  if (ready) className += ` ${classes.ready}`;
  if (task.overdue) className += ` ${classes.overdue}`;
  return (
    <a
      href={paths.app.task(task.id)}
      className={className}
      style={statusChipStyle(task.status)}
      title={title}
      tabIndex={-1}
      data-testid="matrix-cell"
      data-stage-id={stage.id}
      data-status={task.status}
    >
      {task.overdue ? <IconAlarm size={12} className={classes.overdueIcon} aria-label={context.words.overdue} /> : null}
      <span>{label}</span>
      {task.files > 0 ? (
        <span className={classes.files} aria-label={context.files(task.files)} data-testid="matrix-cell-files">
          <IconPaperclip size={11} aria-hidden />
          {task.files}
        </span>
      ) : null}
      {task.assignees.length ? <Assignees ids={task.assignees} people={context.people} /> : null}
    </a>
  );
}

/** The columns in view: their stages, and the blank widths standing in for the columns before and after. */
type TColumns = { stages: TStage[]; first: number; before: number; after: number };

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
      <div className={classes.nameCell} style={{ width: NameWidth }} role="rowheader" aria-colindex={1} tabIndex={-1}>
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
      <div className={classes.spacer} style={{ width: columns.before }} />
      {columns.stages.map((stage, index) => (
        <div
          key={stage.id}
          className={classes.cellWrap}
          style={{ width: CellWidth }}
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

/** Pages fetched beyond those in view: two ahead (a page is about 0.7 s of a fast scroll) and one behind. */
const PagesAhead = 2;
const PagesBehind = 1;

const arrowMoves: Record<string, readonly [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

/** Whether a click is a plain one that the app should handle (not a new tab or window). */
const plainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

type TMatrixProps = {
  filter: TMatrixFilter;
  projectId: number;
  empty: React.ReactNode;
  /** Names by user id, for the assignees' avatars in the cells. */
  people?: TPeople;
};

/**
 * The unit × stage matrix (issue 6): the whole pipeline at once, filtered and sorted here, when
 * `whole` (pipelines up to `WholeMatrixUnits`), else a page of rows at a time from the server as the
 * person scrolls (docs/decisions.md, "Speed"). Either way only the rows and columns in view are drawn.
 */
export function UnitMatrix({ whole, ...props }: TMatrixProps & { whole: boolean }) {
  return whole ? <WholeMatrix {...props} /> : <PagedMatrix {...props} />;
}

/**
 * Every unit from one call (`GET units/matrix/whole/`); the filters and the sort run in the browser.
 * Until it arrives (seconds for 10,000 units on the embedded database), the first page of rows with
 * the same filters is drawn from one small call asked for first, so the first rows show at once.
 */
function WholeMatrix({ filter, ...props }: TMatrixProps) {
  const me = useCurrentUser().id;
  const client = useQueryClient();
  const wholeOptions = wholeMatrixQueryOptions(filter.pipeline);
  const known = client.getQueryState(wholeOptions.queryKey);
  // The whole is asked for once the first page is in: on the embedded database, which runs one
  // statement at a time, the page (about 0.1 s) would otherwise wait behind the whole (seconds).
  const first = useQuery({
    ...matrixPageQueryOptions(filter, 0, MatrixPageSize),
    enabled: !known?.data && known?.status !== 'error',
  });
  const query = useQuery({ ...wholeOptions, enabled: !!known?.data || !first.isPending });
  const waiting = !query.data && !query.isError;
  const units = query.data?.units;
  const stages = query.data?.stages ?? (waiting ? first.data?.stages : undefined) ?? noStages;
  const filterKey = JSON.stringify(filter);
  const order = useMemo(
    () => (units ? selectUnits(units, filter, me) : []),
    // `filter` is rebuilt on each render of the list: its JSON is what changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [units, filterKey, me],
  );
  const page = waiting ? first.data : undefined;
  const rowAt = useCallback(
    (index: number) => {
      if (page) {
        const row = page.rows[index];
        return row ? pagedRow(row, page.stages) : undefined;
      }
      const unit = units?.[order[index] ?? -1];
      return unit ? gridRow(unit, stages) : undefined;
    },
    [page, units, order, stages],
  );
  let state: 'pending' | 'error' | 'ready' = 'ready';
  if (query.isError) state = 'error';
  else if (!units && !page) state = 'pending';
  return (
    <MatrixGrid
      {...props}
      pipelineId={filter.pipeline}
      state={state}
      count={page ? page.count : order.length}
      stages={stages}
      rowAt={rowAt}
    />
  );
}

const pagedRows = new WeakMap<TMatrixPage['rows'][number], TGridRow>();
/** A row of a page as the grid draws it: its cells in the page's stage order. */
function pagedRow(row: TMatrixPage['rows'][number], stages: TMatrixPage['stages']): TGridRow {
  const known = pagedRows.get(row);
  if (known) return known;
  const byStage = new Map(row.tasks.map((task) => [task.stage, task]));
  const made = { id: row.unit.id, name: row.unit.name, cells: stages.map((stage) => byStage.get(stage.id) ?? null) };
  pagedRows.set(row, made);
  return made;
}

/** A page of rows per query (`GET units/matrix/`), asked for as the rows come into view. */
function PagedMatrix({ filter, ...props }: TMatrixProps) {
  const first = useQuery(matrixPageQueryOptions(filter, 0, MatrixPageSize));
  const count = first.data?.count ?? 0;
  const stages = first.data?.stages ?? noStages;
  const [range, setRange] = useState<readonly [number, number]>([0, 0]);
  const onRows = useCallback((from: number, to: number) => {
    const next = [Math.floor(from / MatrixPageSize), Math.floor(to / MatrixPageSize)] as const;
    setRange((current) => (current[0] === next[0] && current[1] === next[1] ? current : next));
  }, []);
  const lastOfAll = Math.max(0, Math.ceil(count / MatrixPageSize) - 1);
  const pageNumbers: number[] = [];
  for (let page = Math.max(range[0] - PagesBehind, 1); page <= Math.min(range[1] + PagesAhead, lastOfAll); page++)
    pageNumbers.push(page);
  const pages = useQueries({
    queries: pageNumbers.map((page) => matrixPageQueryOptions(filter, page * MatrixPageSize, MatrixPageSize)),
  });
  const pageData = new Map<number, TMatrixPage | undefined>([[0, first.data]]);
  pageNumbers.forEach((page, i) => pageData.set(page, pages[i]?.data));
  const rowAt = (index: number): TGridRow | undefined => {
    const page = Math.floor(index / MatrixPageSize);
    const row = pageData.get(page)?.rows[index - page * MatrixPageSize];
    return row ? pagedRow(row, stages) : undefined;
  };
  return (
    <MatrixGrid
      {...props}
      pipelineId={filter.pipeline}
      state={first.isPending ? 'pending' : first.isError ? 'error' : 'ready'}
      count={count}
      stages={stages}
      rowAt={rowAt}
      onRows={onRows}
    />
  );
}

/**
 * The grid itself: only the rows and the stage columns in view are drawn (@tanstack/react-virtual,
 * one virtualizer each way); columns come in the server's flow order (`flowOrder`). The header row
 * and the name column stay in place. One click handler for every link; arrow keys move between cells.
 */
function MatrixGrid({
  projectId,
  pipelineId,
  empty,
  people = nobody,
  state,
  count,
  stages,
  rowAt,
  onRows,
}: Omit<TMatrixProps, 'filter'> & {
  pipelineId: number;
  state: 'pending' | 'error' | 'ready';
  count: number;
  stages: readonly TStage[];
  rowAt: (index: number) => TGridRow | undefined;
  /** Told the first and last row index in view (with overscan) when they change. */
  onRows?: (from: number, to: number) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const scroller = useRef<HTMLDivElement>(null);
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
    estimateSize: () => CellWidth,
    // The sticky name column comes first: column offsets start after it.
    paddingStart: NameWidth,
    overscan: 3,
    initialRect: { width: 1200, height: 600 },
  });
  const visibleColumns = columnVirtualizer.getVirtualItems();
  const firstColumn = visibleColumns[0]?.index ?? 0;
  const endColumn = (visibleColumns[visibleColumns.length - 1]?.index ?? -1) + 1;
  // One object per range of columns, so rows (memoized) redraw on a horizontal scroll only.
  const columns = useMemo<TColumns>(
    () => ({
      stages: stages.slice(firstColumn, endColumn),
      first: firstColumn,
      before: firstColumn * CellWidth,
      after: (stages.length - endColumn) * CellWidth,
    }),
    [stages, firstColumn, endColumn],
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
  if (state === 'error')
    return (
      <Text c="red" data-testid="matrix-error">
        {t('Error while loading data')}
      </Text>
    );
  if (count === 0)
    return (
      <Stack align="center" py="xl" data-testid="matrix" data-count={0}>
        {empty}
      </Stack>
    );

  const width = NameWidth + stages.length * CellWidth;
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
          <div className={classes.corner} style={{ width: NameWidth }} role="columnheader">
            {t('Unit')}
          </div>
          <div className={classes.spacer} style={{ width: columns.before }} />
          {columns.stages.map((stage) => (
            <div
              key={stage.id}
              className={classes.headCell}
              style={{ width: CellWidth }}
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
                <MatrixRow row={row} columns={columns} projectId={projectId} pipelineId={pipelineId} context={context} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
