import { applyEdgeChanges, applyNodeChanges, type EdgeChange, type NodeChange } from '@xyflow/react';
import { createStore } from 'zustand/vanilla';
import {
  newEdgeError,
  type TGraphErrorCode,
  type TGraphSaveResult,
  type TLayout,
  type TPipeline,
  type TPipelineNode,
} from '@stageline/shared';
import {
  applyIdMap,
  graphSignature,
  handlePositions,
  makeFlowEdge,
  makeFlowNode,
  needsLayout,
  newTmpId,
  nodeHandles,
  pipelineToSnapshot,
  quickPositions,
  type TFlowEdge,
  type TFlowNode,
  type TGraphSnapshot,
} from './graph-model';
import { createHistory, mapHistory, pushHistory, redoHistory, undoHistory, type THistory } from './history';
import type { TPoint } from './layout';
import type { TStoredPipelineState } from './local-state';

export type TEditorState = {
  nodes: TFlowNode[];
  edges: TFlowEdge[];
  layout: TLayout;
  history: THistory<TGraphSnapshot>;
  /** The pipeline as last loaded or saved: the baseline of "unsaved" and of "Revert". */
  pipeline: TPipeline;
  /** The version the next save sends (a restored older copy keeps its own, to meet the 409). */
  version: number;
  savedSignature: string;
  dirty: boolean;
  /**
   * The pipeline was saved without positions and shows the quick provisional layout until elk's
   * arrives (`applyPositions`); any edit ends it too.
   */
  provisional: boolean;
};

export type TEditorActions = {
  onNodesChange: (changes: NodeChange<TFlowNode>[]) => void;
  onEdgesChange: (changes: EdgeChange<TFlowEdge>[]) => void;
  /** Records the current graph as one undo step (after a drag, a deletion, an edit). */
  commit: () => void;
  undo: () => void;
  redo: () => void;
  /**
   * Adds a stage, selected, as one undo step; with `after`, connected from that node in the same
   * step (when the graph rules allow the edge).
   */
  addStage: (position: TPoint, name: string, after?: string) => string;
  /** Why `source → target` cannot be drawn (the shared graph rules), or null when it can. */
  connectionError: (source: string, target: string) => TGraphErrorCode | null;
  connect: (source: string, target: string) => TGraphErrorCode | null;
  removeEdge: (edgeId: string) => void;
  setEdges: (edges: TFlowEdge[]) => void;
  toggleSelect: (nodeId: string) => void;
  setLayout: (layout: TLayout) => void;
  applyPositions: (positions: ReadonlyMap<string, TPoint>, commit?: boolean) => void;
  highlight: (nodeIds: readonly string[]) => void;
  /** A fresh pipeline from the server: the editor starts over from it (load, reload). */
  reset: (pipeline: TPipeline) => void;
  restore: (stored: TStoredPipelineState) => void;
  revert: () => void;
  saved: (result: TGraphSaveResult) => void;
  updateStages: (stages: readonly TPipelineNode[]) => void;
};

export type TEditorStore = ReturnType<typeof createEditorStore>;

const snapshotOf = (s: TEditorState): TGraphSnapshot => ({ nodes: s.nodes, edges: s.edges, layout: s.layout });

/**
 * A pipeline as the editor opens it: a graph saved without positions (all at one point) gets the
 * quick layout at once, so the first paint never waits for elk; `provisional` says so.
 */
export function openSnapshot(pipeline: TPipeline): { snapshot: TGraphSnapshot; provisional: boolean } {
  const snapshot = pipelineToSnapshot(pipeline);
  if (!needsLayout(snapshot.nodes)) return { snapshot, provisional: false };
  const positions = quickPositions(snapshot);
  return {
    snapshot: {
      ...snapshot,
      nodes: snapshot.nodes.map((n) => ({ ...n, position: positions.get(n.id) ?? n.position })),
    },
    provisional: true,
  };
}

/** The unsaved copy as a snapshot; saved stages keep their settings and counters from `pipeline`. */
export function storedToSnapshot(stored: TStoredPipelineState, pipeline: TPipeline): TGraphSnapshot {
  const byId = new Map(pipeline.nodes.map((n) => [String(n.id), n]));
  return {
    layout: stored.layout,
    nodes: stored.nodes.map((n) =>
      makeFlowNode({ ...n, stage: byId.get(n.id), counters: pipeline.stage_counters[n.id] }, stored.layout),
    ),
    edges: stored.edges.map((e) => makeFlowEdge(e.source, e.target)),
  };
}

export function snapshotToStored(snapshot: TGraphSnapshot, version: number): Omit<TStoredPipelineState, 'saved'> {
  return {
    version,
    layout: snapshot.layout,
    nodes: snapshot.nodes.map((n) => ({
      id: n.id,
      kind: n.data.kind,
      name: n.data.name,
      x: Math.round(n.position.x),
      y: Math.round(n.position.y),
    })),
    edges: snapshot.edges.map((e) => ({ source: e.source, target: e.target })),
  };
}

/**
 * The flow editor's state, one store per open editor: React Flow's nodes and edges (changed with
 * `applyNodeChanges`, so a drag touches only the dragged nodes), the undo history of snapshots and
 * the saved baseline.
 */
export function createEditorStore(pipeline: TPipeline) {
  const { snapshot: initial, provisional } = openSnapshot(pipeline);
  return createStore<TEditorState & TEditorActions>()((set, get) => {
    const present = (snapshot: TGraphSnapshot, extra: Partial<TEditorState> = {}) => {
      const savedSignature = extra.savedSignature ?? get().savedSignature;
      set({
        nodes: snapshot.nodes,
        edges: snapshot.edges,
        layout: snapshot.layout,
        dirty: graphSignature(snapshot) !== savedSignature,
        ...extra,
      });
    };
    const commitSnapshot = (snapshot: TGraphSnapshot) => {
      const state = get();
      const history =
        graphSignature(snapshot) === graphSignature(state.history.present)
          ? { ...state.history, present: snapshot }
          : pushHistory(state.history, snapshot);
      present(snapshot, { history, provisional: false });
    };
    return {
      nodes: initial.nodes,
      edges: initial.edges,
      layout: initial.layout,
      history: createHistory(initial),
      pipeline,
      version: pipeline.version,
      savedSignature: graphSignature(initial),
      dirty: false,
      provisional,

      onNodesChange: (changes) => {
        const nodes = applyNodeChanges(changes, get().nodes);
        if (!changes.some((change) => change.type === 'remove')) return set({ nodes });
        // Far out React Flow holds no edges (`FarLinks` draws the links), so it names none of a
        // deleted stage's links for removal: the store drops every link left without an end.
        const ids = new Set(nodes.map((n) => n.id));
        const edges = get().edges.filter((e) => ids.has(e.source) && ids.has(e.target));
        set(edges.length === get().edges.length ? { nodes } : { nodes, edges });
      },
      onEdgesChange: (changes) => set({ edges: applyEdgeChanges(changes, get().edges) }),
      commit: () => commitSnapshot(snapshotOf(get())),
      undo: () => {
        const history = undoHistory(get().history);
        present(history.present, { history });
      },
      redo: () => {
        const history = redoHistory(get().history);
        present(history.present, { history });
      },
      addStage: (position, name, after) => {
        const id = newTmpId();
        const s = get();
        const node = {
          ...makeFlowNode({ id, kind: 'stage', name, x: position.x, y: position.y }, s.layout),
          selected: true,
        };
        const nodes = [...s.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node];
        const kinds = new Map(nodes.map((n) => [n.id, n.data.kind]));
        const linked = after !== undefined && newEdgeError(kinds, s.edges, after, id) === null;
        commitSnapshot({
          ...snapshotOf(s),
          nodes,
          edges: linked ? [...s.edges, makeFlowEdge(after, id)] : s.edges,
        });
        return id;
      },
      connectionError: (source, target) => {
        const s = get();
        return newEdgeError(new Map(s.nodes.map((n) => [n.id, n.data.kind])), s.edges, source, target);
      },
      connect: (source, target) => {
        const error = get().connectionError(source, target);
        const s = get();
        if (!error) commitSnapshot({ ...snapshotOf(s), edges: [...s.edges, makeFlowEdge(source, target)] });
        return error;
      },
      removeEdge: (edgeId) => {
        const s = get();
        commitSnapshot({ ...snapshotOf(s), edges: s.edges.filter((e) => e.id !== edgeId) });
      },
      setEdges: (edges) => commitSnapshot({ ...snapshotOf(get()), edges }),
      toggleSelect: (nodeId) =>
        set({ nodes: get().nodes.map((n) => (n.id === nodeId ? { ...n, selected: !n.selected } : n)) }),
      setLayout: (layout) => {
        const s = get();
        const sides = handlePositions(layout);
        if (layout === s.layout) return;
        // Swapping the axes keeps the user's arrangement, turned to the new orientation.
        commitSnapshot({
          layout,
          edges: s.edges,
          nodes: s.nodes.map((n) => ({
            ...n,
            ...sides,
            handles: nodeHandles(n.data.kind, layout),
            position: { x: n.position.y, y: n.position.x },
          })),
        });
      },
      applyPositions: (positions, commit = true) => {
        const s = get();
        const nodes = s.nodes.map((n) => {
          const p = positions.get(n.id);
          return p ? { ...n, position: p } : n;
        });
        if (commit) commitSnapshot({ ...snapshotOf(s), nodes });
        else {
          const snapshot = { ...snapshotOf(s), nodes };
          present(snapshot, {
            history: createHistory(snapshot),
            savedSignature: graphSignature(snapshot),
            provisional: false,
          });
        }
      },
      highlight: (nodeIds) => {
        const ids = new Set(nodeIds);
        set({
          nodes: get().nodes.map((n) =>
            !!n.data.highlighted === ids.has(n.id) ? n : { ...n, data: { ...n.data, highlighted: ids.has(n.id) } },
          ),
        });
      },
      reset: (fresh) => {
        const { snapshot, provisional: quick } = openSnapshot(fresh);
        present(snapshot, {
          history: createHistory(snapshot),
          pipeline: fresh,
          version: fresh.version,
          savedSignature: graphSignature(snapshot),
          provisional: quick,
        });
      },
      restore: (stored) => {
        const snapshot = storedToSnapshot(stored, get().pipeline);
        commitSnapshot(snapshot);
        set({ version: stored.version });
      },
      revert: () => {
        const s = get();
        commitSnapshot(openSnapshot(s.pipeline).snapshot);
        set({ version: s.pipeline.version });
      },
      saved: (result) => {
        const { id_map: idMap, ...fresh } = result;
        const s = get();
        const serverNodes = new Map(fresh.nodes.map((n) => [String(n.id), n]));
        const refresh = (snapshot: TGraphSnapshot): TGraphSnapshot => {
          const mapped = applyIdMap(snapshot, idMap);
          return {
            ...mapped,
            nodes: mapped.nodes.map((n) => {
              const stage = serverNodes.get(n.id);
              return stage
                ? {
                    ...n,
                    data: {
                      ...n.data,
                      name: stage.name,
                      stage,
                      counters: fresh.stage_counters[n.id],
                      highlighted: false,
                    },
                  }
                : n;
            }),
          };
        };
        const history = mapHistory(s.history, refresh);
        const saved = pipelineToSnapshot(fresh, s.layout);
        present(history.present, {
          history,
          pipeline: fresh,
          version: fresh.version,
          savedSignature: graphSignature(saved),
        });
      },
      updateStages: (stages) => {
        const byId = new Map(stages.map((st) => [String(st.id), st]));
        const s = get();
        const pipelineNodes = s.pipeline.nodes.map((n) => byId.get(String(n.id)) ?? n);
        set({
          pipeline: { ...s.pipeline, nodes: pipelineNodes },
          nodes: s.nodes.map((n) => {
            const stage = byId.get(n.id);
            return stage ? { ...n, data: { ...n.data, name: stage.name, stage } } : n;
          }),
        });
      },
    };
  });
}
