import { StorageKeys } from '@stageline/shared';
import { storage } from '../../../shared/lib/storage';
import type { TCommentTarget } from '../api';

/**
 * The comment being written on a task or a unit, kept in this browser until it is sent (decision 191),
 * the way the pipeline editor keeps its unsaved graph: leaving the screen does not lose it.
 */
type TStoredDraft = { text: string; saved: number };

const DayMs = 24 * 60 * 60 * 1000;
/** A draft untouched this long is dropped when the app starts (as the editor's copies are). */
export const draftMaxAgeDays = 30;

export const draftKey = (target: TCommentTarget) =>
  `${StorageKeys.commentDraftPrefix}${'task' in target ? `task_${target.task}` : `unit_${target.unit}`}`;

function isDraft(value: unknown): value is TStoredDraft {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<TStoredDraft>;
  return typeof v.text === 'string' && typeof v.saved === 'number';
}

export function readDraft(target: TCommentTarget): string {
  return storage.getJson(draftKey(target), isDraft)?.text ?? '';
}

/** Keeps `text` as the target's draft; an empty text removes it. */
export function writeDraft(target: TCommentTarget, text: string, now = Date.now()): void {
  if (text.trim() === '') storage.remove(draftKey(target));
  else storage.setJson(draftKey(target), { text, saved: now });
}

/** Removes drafts older than `draftMaxAgeDays` and unreadable ones; answers how many went. */
export function purgeStaleDrafts(now = Date.now()): number {
  let keys: string[];
  try {
    keys = Object.keys(window.localStorage).filter((key) => key.startsWith(StorageKeys.commentDraftPrefix));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const key of keys) {
    const draft = storage.getJson(key, isDraft);
    if (!draft || now - draft.saved > draftMaxAgeDays * DayMs) {
      storage.remove(key);
      removed++;
    }
  }
  return removed;
}
