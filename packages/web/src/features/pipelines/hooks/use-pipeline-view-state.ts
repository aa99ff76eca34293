import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The pipeline screen's view state (docs/rules.md §Web) lives in the URL, so reload and back/forward
 * restore it: `fullscreen=1`, `horizontal=1|0` (an orientation override), `stage`, `selected=1,2`,
 * `unit`, `task`. Opening things pushes a history entry; selecting replaces the current one.
 */
export type TPipelineViewState = {
  fullscreen: boolean;
  horizontal: boolean | null;
  stage: number | null;
  selected: number[];
  unit: number | null;
  task: number | null;
};

const toId = (value: string | null) => {
  if (value === null || !/^\d+$/.test(value)) return null;
  return Number(value);
};

export function parseViewState(params: URLSearchParams): TPipelineViewState {
  const horizontal = params.get('horizontal');
  return {
    fullscreen: params.get('fullscreen') === '1',
    horizontal: horizontal === '1' ? true : horizontal === '0' ? false : null,
    stage: toId(params.get('stage')),
    selected: (params.get('selected') ?? '')
      .split(',')
      .map((part) => toId(part))
      .filter((id): id is number => id !== null),
    unit: toId(params.get('unit')),
    task: toId(params.get('task')),
  };
}

/** Writes `changes` over `params`; null, false-for-fullscreen and empty lists remove the key. */
export function writeViewState(params: URLSearchParams, changes: Partial<TPipelineViewState>): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (key: string, value: string | null) => (value === null ? next.delete(key) : next.set(key, value));
  if ('fullscreen' in changes) put('fullscreen', changes.fullscreen ? '1' : null);
  if ('horizontal' in changes) put('horizontal', changes.horizontal == null ? null : changes.horizontal ? '1' : '0');
  if ('stage' in changes) put('stage', changes.stage == null ? null : String(changes.stage));
  if ('selected' in changes) put('selected', changes.selected?.length ? changes.selected.join(',') : null);
  if ('unit' in changes) put('unit', changes.unit == null ? null : String(changes.unit));
  if ('task' in changes) put('task', changes.task == null ? null : String(changes.task));
  return next;
}

export function usePipelineViewState() {
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => parseViewState(params), [params]);
  /** Opening or closing a panel, fullscreen or orientation: a new history entry. */
  const open = useCallback(
    (changes: Partial<TPipelineViewState>) => setParams((current) => writeViewState(current, changes)),
    [setParams],
  );
  /** Selection: replaces the entry, so back does not step through every click. */
  const select = useCallback(
    (selected: number[]) => setParams((current) => writeViewState(current, { selected }), { replace: true }),
    [setParams],
  );
  return { ...state, open, select };
}
