import { useReactFlow } from '@xyflow/react';
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent as ReactKeyboardEvent,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { TGraphErrorCode } from '@stageline/shared';
import type { TLinkOption } from '../components/stage-link-dialog';
import type { TEditorStore } from '../lib/editor-store';
import { NodeSizes, type TFlowNode } from '../lib/graph-model';
import type { TPoint } from '../lib/layout';
import { arrowDirections, nearestInDirection, stepOffset, type TBox } from '../lib/spatial';

/** A key pressed while typing belongs to the field, never to the editor. */
export function isTyping(target: EventTarget | null) {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable ||
      ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
      target.getAttribute('role') === 'textbox')
  );
}

const sizeOf = (n: TFlowNode) => ({
  width: n.measured?.width ?? n.width ?? NodeSizes[n.data.kind].width,
  height: n.measured?.height ?? n.height ?? NodeSizes[n.data.kind].height,
});

/** Where a stage added after `from` goes: one step further along the flow, level with it. */
function afterPosition(from: TFlowNode, horizontal: boolean): TPoint {
  const { width, height } = sizeOf(from);
  const stage = NodeSizes.stage;
  return horizontal
    ? { x: from.position.x + width + 80, y: from.position.y + (height - stage.height) / 2 }
    : { x: from.position.x + (width - stage.width) / 2, y: from.position.y + height + 60 };
}

/**
 * The diagram editor by keyboard alone (issue 20; docs/guide keyboard-shortcuts): on a focused node
 * (Tab reaches them; React Flow makes each one focusable), the arrow keys move the focus to the
 * nearest node in that direction, Shift+arrows move the node one grid step, N adds a stage after it
 * (connected from it, and focused), C and D connect and disconnect by choosing the other stage from
 * a list, Delete removes it, Enter opens its settings. Anywhere in the editor, Ctrl+Z / Ctrl+Shift+Z
 * / Ctrl+Y undo and redo, Ctrl+S saves. Every action goes through the same store actions and React
 * Flow calls as the mouse, and is announced through `announce`. Never while typing in a field.
 */
export function useFlowKeyboard({
  store,
  lastFocusedRef,
  announce,
  refuse,
  graphError,
  addStage,
  openSettings,
  save,
}: {
  store: TEditorStore;
  /** The node the keyboard was last on (the editor maps a saved stage's temporary id to its real one). */
  lastFocusedRef: RefObject<string | null>;
  announce: (message: string) => void;
  /** Says on the canvas, where a mouse user looks too, why a key did nothing (an alert: read out as well). */
  refuse: (message: string) => void;
  graphError: (code: TGraphErrorCode) => string;
  /** Adds a stage at `at` (free of other stages), connected from `after`; its id, or null at the limit. */
  addStage: (at: TPoint, after: string) => string | null;
  openSettings: (id: string) => void;
  save: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const flow = useReactFlow<TFlowNode>();
  /** A node the focus is on its way to (drawn on a coming frame): keys pressed meanwhile act on it. */
  const pendingRef = useRef<string | null>(null);
  const [link, setLink] = useState<{ mode: 'connect' | 'disconnect'; id: string } | null>(null);

  const nameOf = useCallback(
    (id: string) => {
      const node = store.getState().nodes.find((n) => n.id === id);
      if (!node) return '';
      return node.data.kind === 'root' ? t('Start') : node.data.kind === 'end' ? t('End') : node.data.name;
    },
    [store, t],
  );

  /**
   * Focuses a node; one outside the view is not drawn (only visible elements are), so the view
   * centres on it first and the focus follows once it is drawn.
   */
  const focusNode = useCallback(
    (id: string) => {
      lastFocusedRef.current = id;
      pendingRef.current = id;
      let tries = 0;
      let centred = false;
      const attempt = () => {
        if (pendingRef.current !== id) return;
        const element = document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
        if (element) {
          pendingRef.current = null;
          element.focus();
          return;
        }
        // Not drawn a frame after: outside the view, which centres on it.
        if (!centred && tries > 0) {
          const node = flow.getInternalNode(id);
          if (node) {
            centred = true;
            const { width, height } = sizeOf(node);
            void flow.setCenter(
              node.internals.positionAbsolute.x + width / 2,
              node.internals.positionAbsolute.y + height / 2,
              {
                zoom: flow.getZoom(),
              },
            );
          }
        }
        tries += 1;
        if (tries < 30) requestAnimationFrame(attempt);
        else pendingRef.current = null;
      };
      // At once when the node is drawn, so keys pressed in quick succession each start from it.
      attempt();
    },
    [flow, lastFocusedRef],
  );

  /** Gives the focus back to the stage it was on (after a dialog or the settings drawer). */
  const restoreFocus = useCallback(() => {
    const id = lastFocusedRef.current;
    if (id && store.getState().nodes.some((n) => n.id === id)) focusNode(id);
  }, [store, focusNode, lastFocusedRef]);

  // --- anywhere in the editor: undo, redo, save.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event.target) || !(event.ctrlKey || event.metaKey) || event.altKey) return;
      const key = event.key.toLowerCase();
      const { history } = store.getState();
      if (key === 'z' && !event.shiftKey) {
        store.getState().undo();
        if (history.past.length > 0) announce(t('Undone'));
      } else if ((key === 'z' && event.shiftKey) || key === 'y') {
        store.getState().redo();
        if (history.future.length > 0) announce(t('Redone'));
      } else if (key === 's' && !event.shiftKey) {
        if (store.getState().dirty) void save();
      } else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, announce, save, t]);

  const onFocusCapture = useCallback(
    (event: FocusEvent) => {
      const target = event.target as HTMLElement;
      if (!target.classList.contains('react-flow__node') || !target.dataset.id) return;
      lastFocusedRef.current = target.dataset.id;
      // The focus arrived (or the user went elsewhere): nothing is on its way any more.
      pendingRef.current = null;
    },
    [lastFocusedRef],
  );

  // --- on a focused node. Capture phase: these keys never reach React Flow's own node handler
  // (which would move selected nodes with the arrows) nor the app's one-key shortcuts.
  const onKeyDownCapture = useCallback(
    (event: ReactKeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (event.ctrlKey || event.metaKey) return;
      if (!target.classList.contains('react-flow__node')) {
        // Delete on a selection made with the mouse: React Flow skips Start and End silently.
        const deleting = event.key === 'Delete' || event.key === 'Backspace';
        if (
          deleting &&
          !isTyping(target) &&
          store.getState().nodes.some((n) => n.selected && n.data.kind !== 'stage')
        ) {
          refuse(t('Start and end stages cannot be deleted.'));
        }
        return;
      }
      const id = pendingRef.current ?? target.dataset.id;
      const s = store.getState();
      const node = id ? s.nodes.find((n) => n.id === id) : undefined;
      if (!id || !node) return;
      const direction = arrowDirections[event.key];
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      const handled = () => {
        event.preventDefault();
        event.stopPropagation();
      };

      if (direction && !event.altKey) {
        handled();
        if (event.shiftKey) {
          const { dx, dy } = stepOffset(direction);
          s.onNodesChange([{ type: 'position', id, position: { x: node.position.x + dx, y: node.position.y + dy } }]);
          s.commit();
          announce(t('Moved {{name}}', { name: nameOf(id) }));
          return;
        }
        const boxes: TBox[] = s.nodes.map((n) => ({ id: n.id, ...n.position, ...sizeOf(n) }));
        const next = nearestInDirection(boxes, id, direction);
        if (next) focusNode(next);
        return;
      }
      if (event.altKey || event.shiftKey) return;
      if (key === 'n') {
        handled();
        if (node.data.kind === 'end') {
          announce(graphError('edge_out_of_end'));
          return;
        }
        const added = addStage(afterPosition(node, s.layout === 'horizontal'), id);
        if (!added) return;
        announce(t('{{name}} added after {{after}}', { name: nameOf(added), after: nameOf(id) }));
        focusNode(added);
      } else if (key === 'c' || key === 'd') {
        handled();
        setLink({ mode: key === 'c' ? 'connect' : 'disconnect', id });
      } else if (key === 'Delete' || key === 'Backspace') {
        handled();
        if (node.data.kind !== 'stage') {
          refuse(t('Start and end stages cannot be deleted.'));
          return;
        }
        const name = nameOf(id);
        // Where the focus goes next: the stage before it, else Start.
        const before = s.edges.find((e) => e.target === id)?.source ?? s.nodes.find((n) => n.data.kind === 'root')?.id;
        // React Flow's own deletion, as the Delete key on a selection: onDelete commits the step.
        void flow.deleteElements({ nodes: [{ id }] }).then(({ deletedNodes }) => {
          if (deletedNodes.length === 0) return;
          announce(t('Deleted {{name}}', { name }));
          if (before) focusNode(before);
        });
      } else if (key === 'Enter') {
        handled();
        if (node.data.kind === 'stage') openSettings(id);
      }
    },
    [store, announce, refuse, graphError, addStage, openSettings, focusNode, nameOf, flow, t],
  );

  // --- the connect / disconnect list.
  const linkOptions: TLinkOption[] = useMemo(() => {
    if (!link) return [];
    const s = store.getState();
    if (link.mode === 'connect')
      return s.nodes
        .filter((n) => s.connectionError(link.id, n.id) === null)
        .map((n) => ({ value: n.id, label: nameOf(n.id) }));
    return s.edges
      .filter((e) => e.source === link.id || e.target === link.id)
      .map((e) => ({
        value: e.id,
        label: e.source === link.id ? `→ ${nameOf(e.target)}` : `${nameOf(e.source)} →`,
      }));
  }, [link, store, nameOf]);

  const confirmLink = useCallback(
    (value: string) => {
      if (!link) return;
      const s = store.getState();
      if (link.mode === 'connect') {
        const problem = s.connect(link.id, value);
        announce(
          problem
            ? graphError(problem)
            : t('Connected {{source}} to {{target}}', { source: nameOf(link.id), target: nameOf(value) }),
        );
      } else {
        const edge = s.edges.find((e) => e.id === value);
        if (edge) {
          s.removeEdge(edge.id);
          announce(
            t('Disconnected {{source}} from {{target}}', { source: nameOf(edge.source), target: nameOf(edge.target) }),
          );
        }
      }
      setLink(null);
    },
    [link, store, announce, graphError, nameOf, t],
  );

  return {
    onKeyDownCapture,
    onFocusCapture,
    focusNode,
    restoreFocus,
    link: {
      mode: link?.mode ?? null,
      stageName: link ? nameOf(link.id) : '',
      options: linkOptions,
      onConfirm: confirmLink,
      onClose: () => setLink(null),
    },
  };
}
