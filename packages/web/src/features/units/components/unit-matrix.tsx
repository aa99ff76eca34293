import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { TMatrixPage } from '@stageline/shared';
import { useCurrentUser } from '../../auth';
import { matrixPageQueryOptions, wholeMatrixQueryOptions, type TMatrixFilter } from '../api';
import { gridRow, needsServer, selectUnits, type TGridRow } from '../lib/whole-matrix';
import type { TPeople } from './matrix-cell';
import { MatrixGrid, type TFieldColumn } from './matrix-grid';

/**
 * Where the matrix's rows come from: the whole pipeline, or a page at a time. The drawing is
 * `MatrixGrid` (matrix-grid.tsx), a cell `StatusCell` (matrix-cell.tsx).
 */

/** Rows per request: small enough to answer fast, big enough that a screen needs one or two. */
export const MatrixPageSize = 100;
const noStages: TMatrixPage['stages'] = [];

/** Pages fetched beyond those in view: two ahead (a page is about 0.7 s of a fast scroll) and one behind. */
const PagesAhead = 2;
const PagesBehind = 1;

type TMatrixProps = {
  filter: TMatrixFilter;
  projectId: number;
  empty: React.ReactNode;
  /** Names by user id, for the assignees' avatars in the cells. */
  people?: TPeople;
  /** Custom fields shown as columns after the unit's name. */
  fieldColumns?: readonly TFieldColumn[];
};

/**
 * The unit × stage matrix (issue 6): the whole pipeline at once, filtered and sorted here, when
 * `whole` (pipelines up to `WholeMatrixUnits`), else a page of rows at a time from the server as the
 * person scrolls (docs/decisions.md, "Speed"). Either way only the rows and columns in view are drawn.
 */
export function UnitMatrix({ whole, ...props }: TMatrixProps & { whole: boolean }) {
  // Custom field filters and sorts run on the server only (docs/custom-fields.md).
  return whole && !needsServer(props.filter) ? <WholeMatrix {...props} /> : <PagedMatrix {...props} />;
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
      retry={query}
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
  const made = {
    id: row.unit.id,
    name: row.unit.name,
    fields: row.unit.fields,
    cells: stages.map((stage) => byStage.get(stage.id) ?? null),
  };
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
      retry={first}
      count={count}
      stages={stages}
      rowAt={rowAt}
      onRows={onRows}
    />
  );
}
