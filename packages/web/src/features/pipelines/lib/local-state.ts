import { ClientConstants, StorageKeys, type TLayout, type TNodeKind } from '@stageline/shared';
import { storage } from '../../../shared/lib/storage';

/**
 * The unsaved copy of a pipeline's graph (docs/rules.md §Web): kept under `pipelineState_{id}` with
 * the moment it was written, offered back when the editor opens, dropped after 15 days.
 */
export type TStoredNode = { id: string; kind: TNodeKind; name: string; x: number; y: number };
export type TStoredPipelineState = {
  saved: number;
  /** The version the copy was edited from: a save of an older copy meets the 409 prompt. */
  version: number;
  layout: TLayout;
  nodes: TStoredNode[];
  edges: { source: string; target: string }[];
};

const DayMs = 24 * 60 * 60 * 1000;
export const pipelineStateKey = (pipelineId: number | string) => `${StorageKeys.pipelineStatePrefix}${pipelineId}`;

function isStoredState(value: unknown): value is TStoredPipelineState {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<TStoredPipelineState>;
  return (
    typeof v.saved === 'number' &&
    typeof v.version === 'number' &&
    (v.layout === 'horizontal' || v.layout === 'vertical') &&
    Array.isArray(v.nodes) &&
    Array.isArray(v.edges)
  );
}

export function readPipelineState(pipelineId: number | string): TStoredPipelineState | null {
  return storage.getJson(pipelineStateKey(pipelineId), isStoredState);
}

export function writePipelineState(
  pipelineId: number | string,
  state: Omit<TStoredPipelineState, 'saved'>,
  now = Date.now(),
): void {
  storage.setJson(pipelineStateKey(pipelineId), { ...state, saved: now });
}

export function clearPipelineState(pipelineId: number | string): void {
  storage.remove(pipelineStateKey(pipelineId));
}

/**
 * Removes unsaved pipeline copies older than 15 days (docs/rules.md §Web). Skipped in maintenance mode,
 * when nobody can save them yet and they would otherwise expire unseen. Unreadable copies go too.
 */
export function purgeStalePipelineStates(options: { maintenance: boolean; now?: number }): number {
  if (options.maintenance) return 0;
  const now = options.now ?? Date.now();
  const maxAge = ClientConstants.pipelineStateMaxAgeDays * DayMs;
  let keys: string[];
  try {
    keys = Object.keys(window.localStorage).filter((key) => key.startsWith(StorageKeys.pipelineStatePrefix));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const key of keys) {
    const state = storage.getJson(key, isStoredState);
    if (!state || now - state.saved > maxAge) {
      storage.remove(key);
      removed += 1;
    }
  }
  return removed;
}
