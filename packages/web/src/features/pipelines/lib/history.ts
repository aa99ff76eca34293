/**
 * Undo and redo as a pure value: the present, what came before it and what an undo put aside.
 * Snapshots are immutable, so consecutive ones share every node that did not change.
 */
export type THistory<T> = { past: T[]; present: T; future: T[] };

export const HistoryCap = 100;

export function createHistory<T>(present: T): THistory<T> {
  return { past: [], present, future: [] };
}

/** A new present; the oldest entries fall off beyond `cap`, and redo is no longer possible. */
export function pushHistory<T>(history: THistory<T>, next: T, cap = HistoryCap): THistory<T> {
  if (next === history.present) return history;
  const past = [...history.past, history.present];
  if (past.length > cap) past.splice(0, past.length - cap);
  return { past, present: next, future: [] };
}

export function undoHistory<T>(history: THistory<T>): THistory<T> {
  if (history.past.length === 0) return history;
  const present = history.past[history.past.length - 1]!;
  return { past: history.past.slice(0, -1), present, future: [history.present, ...history.future] };
}

export function redoHistory<T>(history: THistory<T>): THistory<T> {
  if (history.future.length === 0) return history;
  const [present, ...future] = history.future;
  return { past: [...history.past, history.present], present: present!, future };
}

/** Rewrites every entry (e.g. to rename client keys after a save) without changing the position. */
export function mapHistory<T>(history: THistory<T>, map: (value: T) => T): THistory<T> {
  return { past: history.past.map(map), present: map(history.present), future: history.future.map(map) };
}
