import { Center, Loader, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlarm, IconSitemap } from '@tabler/icons-react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, TaskStatusLabels, type TMatrixPage, type TTaskCell } from '@stageline/shared';
import { statusColors } from '../../../shared/ui/status-colors';
import { matrixPageQueryOptions, type TMatrixFilter } from '../api';
import classes from './matrix.module.css';

/** Rows per request: small enough to answer fast, big enough that a screen needs one or two. */
export const MatrixPageSize = 100;
const RowHeight = 36;
const NameWidth = 240;
const CellWidth = 132;

type TRow = TMatrixPage['rows'][number];
const noStages: TMatrixPage['stages'] = [];
type TStage = TMatrixPage['stages'][number];

const StatusCell = memo(function StatusCell({ task, stage }: { task: TTaskCell | undefined; stage: TStage }) {
  const { t } = useTranslation();
  if (!task) return <span className={classes.empty}>—</span>;
  const color = statusColors[task.status];
  const label = t(TaskStatusLabels[task.status]);
  const ready = task.ready && task.status !== 'done';
  const title = [stage.name, label, ready ? t('Ready') : null, task.overdue ? t('Overdue') : null]
    .filter(Boolean)
    .join(' · ');
  return (
    <Link
      to={paths.app.task(task.id)}
      className={classes.cell}
      style={{
        background: `var(--mantine-color-${color}-light)`,
        color: `var(--mantine-color-${color}-light-color)`,
      }}
      title={title}
      data-testid="matrix-cell"
      data-task-id={task.id}
      data-stage-id={stage.id}
      data-status={task.status}
      data-ready={ready ? 'true' : 'false'}
      data-overdue={task.overdue ? 'true' : 'false'}
    >
      {task.overdue ? <IconAlarm size={12} className={classes.overdueIcon} aria-label={t('Overdue')} /> : null}
      <span>{label}</span>
    </Link>
  );
});

/** The columns in view: their stages, and the blank widths standing in for the columns before and after. */
type TColumns = { stages: TStage[]; before: number; after: number };

const MatrixRow = memo(function MatrixRow({
  row,
  columns,
  projectId,
  pipelineId,
}: {
  row: TRow | undefined;
  columns: TColumns;
  projectId: number;
  pipelineId: number;
}) {
  const { t } = useTranslation();
  const byStage = new Map(row?.tasks.map((task) => [task.stage, task]));
  return (
    <>
      <div className={classes.nameCell} style={{ width: NameWidth }} role="rowheader">
        {row ? (
          <>
            <Link to={paths.app.unit(projectId, row.unit.id)} title={row.unit.name} data-testid="matrix-unit-link">
              {row.unit.name}
            </Link>
            <Link
              to={`${paths.app.pipeline(projectId, pipelineId)}?unit=${row.unit.id}`}
              className={classes.onPipeline}
              aria-label={t('Show on the pipeline')}
              title={t('Show on the pipeline')}
              data-testid="matrix-unit-pipeline"
            >
              <IconSitemap size={14} />
            </Link>
          </>
        ) : (
          <Skeleton height={12} width="70%" />
        )}
      </div>
      <div className={classes.spacer} style={{ width: columns.before }} />
      {columns.stages.map((stage) => (
        <div key={stage.id} className={classes.cellWrap} style={{ width: CellWidth }} role="gridcell">
          {row ? <StatusCell task={byStage.get(stage.id)} stage={stage} /> : <Skeleton height="100%" />}
        </div>
      ))}
      <div className={classes.spacer} style={{ width: columns.after }} />
    </>
  );
});

/**
 * The unit × stage matrix (issue 6): only the rows and the stage columns in view are drawn
 * (@tanstack/react-virtual, one virtualizer each way), and only the rows' pages are asked for, one
 * query per page, as the person scrolls. Columns come in the server's flow order (`flowOrder`). The
 * header row and the name column stay in place.
 */
export function UnitMatrix({
  filter,
  projectId,
  empty,
}: {
  filter: TMatrixFilter;
  projectId: number;
  empty: React.ReactNode;
}) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const first = useQuery(matrixPageQueryOptions(filter, 0, MatrixPageSize));
  const count = first.data?.count ?? 0;
  const stages = first.data?.stages ?? noStages;

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
      before: firstColumn * CellWidth,
      after: (stages.length - endColumn) * CellWidth,
    }),
    [stages, firstColumn, endColumn],
  );
  const items = virtualizer.getVirtualItems();
  const firstPage = items.length ? Math.floor(items[0]!.index / MatrixPageSize) : 0;
  const lastPage = items.length ? Math.floor(items[items.length - 1]!.index / MatrixPageSize) : 0;
  const pageNumbers: number[] = [];
  for (let page = Math.max(firstPage, 1); page <= lastPage; page++) pageNumbers.push(page);
  const pages = useQueries({
    queries: pageNumbers.map((page) => matrixPageQueryOptions(filter, page * MatrixPageSize, MatrixPageSize)),
  });
  const pageData = new Map<number, TMatrixPage | undefined>([[0, first.data]]);
  pageNumbers.forEach((page, i) => pageData.set(page, pages[i]?.data));
  const rowAt = (index: number): TRow | undefined => {
    const page = Math.floor(index / MatrixPageSize);
    return pageData.get(page)?.rows[index - page * MatrixPageSize];
  };

  if (first.isPending)
    return (
      <Center mih={300} data-testid="matrix-loading">
        <Loader />
      </Center>
    );
  if (first.isError)
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
                data-unit-id={row?.unit.id}
              >
                <MatrixRow row={row} columns={columns} projectId={projectId} pipelineId={filter.pipeline} />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
