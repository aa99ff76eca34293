import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';
import { graphSignature } from '../lib/graph-model';
import { snapshotToStored, storedToSnapshot, type TEditorStore } from '../lib/editor-store';
import { clearPipelineState, readPipelineState, writePipelineState } from '../lib/local-state';

/**
 * The unsaved copy of the flow editor (docs/rules.md §Pipelines: nothing is lost): written to
 * localStorage shortly after each change, dropped when nothing is unsaved.
 */
export function useUnsavedCopy(store: TEditorStore, pipelineId: number) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      const s = store.getState();
      if (s.dirty) writePipelineState(pipelineId, snapshotToStored(s, s.version));
      else clearPipelineState(pipelineId);
    };
    const unsubscribe = store.subscribe((s, prev) => {
      if (s.history === prev.history && s.dirty === prev.dirty && s.version === prev.version) return;
      clearTimeout(timer);
      timer = setTimeout(flush, 400);
    });
    return () => {
      unsubscribe();
      if (timer) {
        clearTimeout(timer);
        flush();
      }
    };
  }, [store, pipelineId]);
}

/**
 * On open, once: offers the unsaved copy of a previous session (`askRestore` answers whether to
 * take it); without one, `otherwise` runs (the first layout of a graph saved without positions).
 */
export function useRestoreOnOpen({
  store,
  pipelineId,
  askRestore,
  onRestored,
  otherwise,
}: {
  store: TEditorStore;
  pipelineId: number;
  askRestore: () => Promise<boolean>;
  onRestored: () => void;
  otherwise: () => Promise<void>;
}) {
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    void (async () => {
      const stored = readPipelineState(pipelineId);
      const s = store.getState();
      if (stored) {
        const differs = graphSignature(storedToSnapshot(stored, s.pipeline)) !== s.savedSignature;
        if (differs && (await askRestore())) {
          store.getState().restore(stored);
          onRestored();
          return;
        }
        clearPipelineState(pipelineId);
      }
      await otherwise();
    })();
  }, [store, pipelineId, askRestore, onRestored, otherwise]);
}

/**
 * Leaving with unsaved changes: in-app navigation is blocked (the caller asks), closing the tab
 * warns. A change of the search alone is let through on purpose: the editor reads nothing from it
 * and stays mounted, so nothing is lost.
 */
export function useLeaveGuard(store: TEditorStore, dirty: boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => store.getState().dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return blocker;
}
