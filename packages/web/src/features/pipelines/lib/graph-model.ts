import type { Edge, Node, NodeHandle } from '@xyflow/react';
import { MarkerType, Position } from '@xyflow/react';
import type { TGraphSave, TLayout, TNodeKind, TPipeline, TPipelineNode, TTaskCountersDto } from '@stageline/shared';
import { quickLayout, type TPoint } from './layout';

/**
 * The editor's model of a pipeline graph. Node ids are strings: a saved node's id is its server id
 * as text ("12"), a node drawn since the last save has a client key ("tmp_…") until the server
 * gives it an id (the save answer's `id_map`).
 */
export type TStageNodeData = {
  kind: TNodeKind;
  name: string;
  /** The node as the server has it (settings, counters); absent for a node drawn since the save. */
  stage?: TPipelineNode;
  counters?: TTaskCountersDto;
  /** Part of a cycle the server or the validation refused. */
  highlighted?: boolean;
};
export type TFlowNode = Node<TStageNodeData>;
export type TFlowEdge = Edge;

/** What undo and redo restore, and what the unsaved copy in localStorage holds. */
export type TGraphSnapshot = { nodes: TFlowNode[]; edges: TFlowEdge[]; layout: TLayout };

export const TMP_PREFIX = 'tmp_';
export const isTmpId = (id: string) => id.startsWith(TMP_PREFIX);
export const newTmpId = () => `${TMP_PREFIX}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
export const edgeId = (source: string, target: string) => `${source}->${target}`;

/** Handle sides per orientation: without them React Flow's edges loop round (STACK.md). */
export function handlePositions(layout: TLayout): { sourcePosition: Position; targetPosition: Position } {
  return layout === 'horizontal'
    ? { sourcePosition: Position.Right, targetPosition: Position.Left }
    : { sourcePosition: Position.Bottom, targetPosition: Position.Top };
}

const nodeType = (kind: TNodeKind) => kind;

/**
 * Every node has a fixed size, given to React Flow as `width`/`height`: the minimap and the
 * visible-only rendering know where a node is before it was ever drawn, and nothing re-lays out
 * when a node is measured. The CSS makes each node fill exactly this box.
 */
export const NodeSizes: Record<TNodeKind, { width: number; height: number }> = {
  stage: { width: 200, height: 72 },
  root: { width: 112, height: 40 },
  end: { width: 112, height: 40 },
};

/**
 * The handles' box as drawn, centred on the node's border: React Flow's stylesheet sets 6 px (it
 * wins over the size in flow.module.css `.handle`). If the drawn size changes, change this too:
 * React Flow replaces these bounds with measured ones once a node is drawn.
 */
const HandleSize = 6;

/**
 * Where a node's handles are, declared up front (React Flow measures them only once a node is
 * drawn): edges of nodes never drawn yet have their ends, and React Flow need not draw every node
 * once just to measure it, so a large pipeline's first render holds only the nodes in view.
 */
export function nodeHandles(kind: TNodeKind, layout: TLayout): NodeHandle[] {
  const { width, height } = NodeSizes[kind];
  const { sourcePosition, targetPosition } = handlePositions(layout);
  const half = HandleSize / 2;
  const at = (position: Position) =>
    position === Position.Right
      ? { x: width - half, y: height / 2 - half }
      : position === Position.Left
        ? { x: -half, y: height / 2 - half }
        : position === Position.Bottom
          ? { x: width / 2 - half, y: height - half }
          : { x: width / 2 - half, y: -half };
  const handles: NodeHandle[] = [];
  if (kind !== 'root')
    handles.push({
      type: 'target',
      position: targetPosition,
      ...at(targetPosition),
      width: HandleSize,
      height: HandleSize,
    });
  if (kind !== 'end')
    handles.push({
      type: 'source',
      position: sourcePosition,
      ...at(sourcePosition),
      width: HandleSize,
      height: HandleSize,
    });
  return handles;
}

/** One flow node; Start and End are never deletable (docs/rules.md §Pipelines). */
export function makeFlowNode(
  input: {
    id: string;
    kind: TNodeKind;
    name: string;
    x: number;
    y: number;
    stage?: TPipelineNode;
    counters?: TTaskCountersDto;
  },
  layout: TLayout,
): TFlowNode {
  return {
    id: input.id,
    type: nodeType(input.kind),
    position: { x: input.x, y: input.y },
    ...NodeSizes[input.kind],
    // Known before drawing: fitView counts only measured nodes, and the undrawn ones are the most.
    measured: NodeSizes[input.kind],
    deletable: input.kind === 'stage',
    ...handlePositions(layout),
    handles: nodeHandles(input.kind, layout),
    data: { kind: input.kind, name: input.name, stage: input.stage, counters: input.counters },
  };
}

export function makeFlowEdge(source: string, target: string): TFlowEdge {
  return {
    id: edgeId(source, target),
    source,
    target,
    type: 'stage',
    markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 },
  };
}

/** The server's pipeline as the editor's snapshot; `layout` may override the pipeline's own. */
export function pipelineToSnapshot(pipeline: TPipeline, layout: TLayout = pipeline.layout): TGraphSnapshot {
  const transpose = layout !== pipeline.layout;
  return {
    layout,
    nodes: pipeline.nodes.map((node) =>
      makeFlowNode(
        {
          id: String(node.id),
          kind: node.kind,
          name: node.name,
          x: transpose ? node.y : node.x,
          y: transpose ? node.x : node.y,
          stage: node,
          counters: pipeline.stage_counters[String(node.id)],
        },
        layout,
      ),
    ),
    edges: pipeline.edges.map((edge) => makeFlowEdge(String(edge.source), String(edge.target))),
  };
}

/**
 * Stages saved without positions (all at one point) need a layout before they are shown. Stops at
 * the first stage elsewhere, so calling it on every drag frame costs next to nothing.
 */
export function needsLayout(nodes: readonly TFlowNode[]): boolean {
  let first: { x: number; y: number } | null = null;
  let stages = 0;
  for (const node of nodes) {
    if (node.data.kind !== 'stage') continue;
    stages += 1;
    if (!first) first = node.position;
    else if (node.position.x !== first.x || node.position.y !== first.y) return false;
  }
  return stages >= 2;
}

/** The quick provisional layout (layout.ts) of a snapshot: what shows while elk works. */
export function quickPositions(snapshot: TGraphSnapshot): Map<string, TPoint> {
  return quickLayout(
    snapshot.nodes.map((n) => ({ id: n.id, kind: n.data.kind, width: n.width, height: n.height })),
    snapshot.edges,
    snapshot.layout,
  );
}

const toRef = (id: string): number | string => (isTmpId(id) ? id : Number(id));

/** PUT pipelines/{id}/graph/: existing nodes by `id`, new ones by `tmp_id`, edges naming either. */
export function buildGraphSave(snapshot: TGraphSnapshot, version: number): TGraphSave {
  return {
    version,
    layout: snapshot.layout,
    nodes: snapshot.nodes.map((node) => {
      const base = {
        kind: node.data.kind,
        name: node.data.name,
        x: Math.round(node.position.x),
        y: Math.round(node.position.y),
      };
      return isTmpId(node.id) ? { ...base, tmp_id: node.id } : { ...base, id: Number(node.id) };
    }),
    edges: snapshot.edges.map((edge) => ({ source: toRef(edge.source), target: toRef(edge.target) })),
  };
}

/** Renames client keys to the ids the server gave (`id_map`), keeping positions and selection. */
export function applyIdMap(snapshot: TGraphSnapshot, idMap: Record<string, number>): TGraphSnapshot {
  if (Object.keys(idMap).length === 0) return snapshot;
  const map = (id: string) => (id in idMap ? String(idMap[id]) : id);
  return {
    layout: snapshot.layout,
    nodes: snapshot.nodes.map((node) => (node.id in idMap ? { ...node, id: map(node.id) } : node)),
    edges: snapshot.edges.map((edge) =>
      edge.source in idMap || edge.target in idMap
        ? {
            ...edge,
            id: edgeId(map(edge.source), map(edge.target)),
            source: map(edge.source),
            target: map(edge.target),
          }
        : edge,
    ),
  };
}

/**
 * What decides "unsaved": ids, kinds, positions (to the pixel), edges and the orientation. Names and
 * settings change through the stage form, which saves them at once.
 */
export function graphSignature(snapshot: TGraphSnapshot): string {
  const nodes = snapshot.nodes
    .map((n) => `${n.id}:${n.data.kind}:${Math.round(n.position.x)}:${Math.round(n.position.y)}`)
    .sort();
  const edges = snapshot.edges.map((e) => edgeId(e.source, e.target)).sort();
  return `${snapshot.layout}|${nodes.join(',')}|${edges.join(',')}`;
}

/** Tasks that saving would delete: the counters of saved stages that are no longer in the graph. */
export function tasksRemovedBy(snapshot: TGraphSnapshot, pipeline: TPipeline): number {
  const present = new Set(snapshot.nodes.map((n) => n.id));
  let total = 0;
  for (const node of pipeline.nodes) {
    if (node.kind !== 'stage' || present.has(String(node.id))) continue;
    const counters = pipeline.stage_counters[String(node.id)];
    if (!counters) continue;
    total += counters.todo + counters.in_progress + counters.review + counters.edit + counters.done;
  }
  return total;
}
