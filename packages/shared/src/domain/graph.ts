import { Limits } from '../limits';

/**
 * The rules of a pipeline graph (docs/rules.md §Pipelines), pure and shared: the flow editor checks them as
 * the user draws, and the server checks them again on save.
 */

export type TNodeKind = 'root' | 'end' | 'stage';
export type TGraphNode<Id extends string | number = string | number> = { id: Id; kind: TNodeKind };
export type TGraphEdge<Id extends string | number = string | number> = { source: Id; target: Id };

export type TGraphErrorCode =
  | 'missing_root'
  | 'missing_end'
  | 'multiple_root'
  | 'multiple_end'
  | 'duplicate_node'
  | 'missing_node'
  | 'self_loop'
  | 'duplicate_edge'
  | 'edge_into_root'
  | 'edge_out_of_end'
  | 'pipeline_cycle'
  | 'too_many_stages';

export type TGraphError<Id = string | number> = {
  code: TGraphErrorCode;
  nodes?: Id[];
  edge?: { source: Id; target: Id };
};

/** The English source message (an i18n key) of each graph error. */
export const GraphErrorMessages: Record<TGraphErrorCode, string> = {
  missing_root: 'A pipeline needs a start stage.',
  missing_end: 'A pipeline needs an end stage.',
  multiple_root: 'A pipeline has exactly one start stage.',
  multiple_end: 'A pipeline has exactly one end stage.',
  duplicate_node: 'Two stages have the same id.',
  missing_node: 'A connection leads to a stage that does not exist.',
  self_loop: 'A stage cannot be connected to itself.',
  duplicate_edge: 'These stages are already connected.',
  edge_into_root: 'Nothing can lead into the start stage.',
  edge_out_of_end: 'Nothing can lead out of the end stage.',
  pipeline_cycle: 'Cycles are not allowed...',
  too_many_stages: 'A pipeline can have at most {{max}} stages.',
};

const key = (edge: TGraphEdge) => `${String(edge.source)}\u0000${String(edge.target)}`;

function adjacency<Id extends string | number>(edges: readonly TGraphEdge<Id>[]): Map<Id, Id[]> {
  const out = new Map<Id, Id[]>();
  for (const { source, target } of edges) {
    const list = out.get(source);
    if (list) list.push(target);
    else out.set(source, [target]);
  }
  return out;
}

/**
 * One cycle of the graph as the list of its nodes (first node repeated at the end), or null. An
 * iterative depth-first search, so 500-stage pipelines cannot overflow the stack.
 */
export function findCycle<Id extends string | number>(
  nodeIds: readonly Id[],
  edges: readonly TGraphEdge<Id>[],
): Id[] | null {
  const out = adjacency(edges);
  const state = new Map<Id, 1 | 2>(); // 1 on the current path, 2 finished
  for (const start of nodeIds) {
    if (state.has(start)) continue;
    const path: Id[] = [];
    const stack: { node: Id; next: number }[] = [{ node: start, next: 0 }];
    state.set(start, 1);
    path.push(start);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const targets = out.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        const seen = state.get(target);
        if (seen === 1) return [...path.slice(path.indexOf(target)), target];
        if (seen === undefined) {
          state.set(target, 1);
          path.push(target);
          stack.push({ node: target, next: 0 });
        }
      } else {
        state.set(frame.node, 2);
        path.pop();
        stack.pop();
      }
    }
  }
  return null;
}

/** Would adding `source → target` close a cycle? (Is `source` reachable from `target`?) */
export function wouldCreateCycle<Id extends string | number>(
  edges: readonly TGraphEdge<Id>[],
  source: Id,
  target: Id,
): boolean {
  if (source === target) return true;
  const out = adjacency(edges);
  const seen = new Set<Id>([target]);
  const queue: Id[] = [target];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of out.get(node) ?? []) {
      if (next === source) return true;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return false;
}

/**
 * Why one more edge `source → target` cannot join the graph, or null when it can: the rules of
 * `validateGraph` asked about a single new edge (the editor checks each connection it draws or
 * picks from a list with this, so its rules are never a copy).
 */
export function newEdgeError<Id extends string | number>(
  kinds: ReadonlyMap<Id, TNodeKind>,
  edges: readonly TGraphEdge<Id>[],
  source: Id,
  target: Id,
): TGraphErrorCode | null {
  if (!kinds.has(source) || !kinds.has(target)) return 'missing_node';
  if (source === target) return 'self_loop';
  if (kinds.get(target) === 'root') return 'edge_into_root';
  if (kinds.get(source) === 'end') return 'edge_out_of_end';
  if (edges.some((e) => e.source === source && e.target === target)) return 'duplicate_edge';
  if (wouldCreateCycle(edges, source, target)) return 'pipeline_cycle';
  return null;
}

/** Every rule of docs/rules.md §Pipelines; an empty list means the graph may be saved. */
export function validateGraph<Id extends string | number>(
  nodes: readonly TGraphNode<Id>[],
  edges: readonly TGraphEdge<Id>[],
): TGraphError<Id>[] {
  const errors: TGraphError<Id>[] = [];
  const byId = new Map<Id, TGraphNode<Id>>();
  for (const node of nodes) {
    if (byId.has(node.id)) errors.push({ code: 'duplicate_node', nodes: [node.id] });
    byId.set(node.id, node);
  }
  const roots = nodes.filter((n) => n.kind === 'root');
  const ends = nodes.filter((n) => n.kind === 'end');
  if (roots.length === 0) errors.push({ code: 'missing_root' });
  if (roots.length > 1) errors.push({ code: 'multiple_root', nodes: roots.map((n) => n.id) });
  if (ends.length === 0) errors.push({ code: 'missing_end' });
  if (ends.length > 1) errors.push({ code: 'multiple_end', nodes: ends.map((n) => n.id) });
  if (nodes.filter((n) => n.kind === 'stage').length > Limits.pipelineStages.max)
    errors.push({ code: 'too_many_stages' });

  const seenEdges = new Set<string>();
  const validEdges: TGraphEdge<Id>[] = [];
  for (const edge of edges) {
    const source = byId.get(edge.source);
    const target = byId.get(edge.target);
    if (!source || !target) {
      errors.push({ code: 'missing_node', edge });
      continue;
    }
    if (edge.source === edge.target) {
      errors.push({ code: 'self_loop', edge, nodes: [edge.source] });
      continue;
    }
    if (target.kind === 'root') errors.push({ code: 'edge_into_root', edge });
    if (source.kind === 'end') errors.push({ code: 'edge_out_of_end', edge });
    if (seenEdges.has(key(edge))) {
      errors.push({ code: 'duplicate_edge', edge });
      continue;
    }
    seenEdges.add(key(edge));
    validEdges.push(edge);
  }
  const cycle = findCycle(
    nodes.map((n) => n.id),
    validEdges,
  );
  if (cycle) errors.push({ code: 'pipeline_cycle', nodes: cycle });
  return errors;
}

/**
 * Stages without input (they count as fed by the start) and without output (they count as leading
 * to the end): the editor offers to draw those edges on save.
 */
export function findOrphans<Id extends string | number>(
  nodes: readonly TGraphNode<Id>[],
  edges: readonly TGraphEdge<Id>[],
): { noInput: Id[]; noOutput: Id[] } {
  const hasInput = new Set(edges.map((e) => e.target));
  const hasOutput = new Set(edges.map((e) => e.source));
  const stages = nodes.filter((n) => n.kind === 'stage');
  return {
    noInput: stages.filter((n) => !hasInput.has(n.id)).map((n) => n.id),
    noOutput: stages.filter((n) => !hasOutput.has(n.id)).map((n) => n.id),
  };
}

/** The edges that connect orphans to the start and the end; with none, the graph is unchanged. */
export function connectOrphans<Id extends string | number>(
  nodes: readonly TGraphNode<Id>[],
  edges: readonly TGraphEdge<Id>[],
): TGraphEdge<Id>[] {
  const root = nodes.find((n) => n.kind === 'root');
  const end = nodes.find((n) => n.kind === 'end');
  if (!root || !end) return [...edges];
  const { noInput, noOutput } = findOrphans(nodes, edges);
  return [
    ...edges,
    ...noInput.map((id) => ({ source: root.id, target: id })),
    ...noOutput.map((id) => ({ source: id, target: end.id })),
  ];
}

/**
 * The stages a stage waits for: its direct predecessors that are stages (the start counts as
 * done). A stage with none is ready at once (docs/rules.md §Tasks).
 */
export function stagePredecessors<Id extends string | number>(
  nodes: readonly TGraphNode<Id>[],
  edges: readonly TGraphEdge<Id>[],
  stageId: Id,
): Id[] {
  const kind = new Map(nodes.map((n) => [n.id, n.kind]));
  return edges.filter((e) => e.target === stageId && kind.get(e.source) === 'stage').map((e) => e.source);
}

/**
 * The stages (no start, no end) in flow order, as columns of the unit matrix and rows of the unit
 * screen show them: by depth (the longest chain of stages leading to a stage; a stage fed only by
 * the start, or by nothing, is at depth 0), ties kept in the order `nodes` come in (the server
 * sends them by id), so server and web agree and adding a stage never reshuffles the others.
 * Every stage comes after all its predecessors. Stages on a cycle (never saved, but tolerated)
 * come last, in input order.
 */
export function flowOrder<Id extends string | number>(
  nodes: readonly TGraphNode<Id>[],
  edges: readonly TGraphEdge<Id>[],
): Id[] {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const isStage = new Set(nodes.filter((n) => n.kind === 'stage').map((n) => n.id));
  const stageEdges = edges.filter((e) => isStage.has(e.source) && isStage.has(e.target));
  const stageNodes = nodes.filter((n) => isStage.has(n.id));
  const depth = new Map<Id, number>();
  const incoming = new Map<Id, Id[]>();
  for (const e of stageEdges) incoming.set(e.target, [...(incoming.get(e.target) ?? []), e.source]);
  for (const id of topologicalOrder(stageNodes, stageEdges)) {
    depth.set(id, Math.max(-1, ...(incoming.get(id) ?? []).map((p) => depth.get(p) ?? -1)) + 1);
  }
  const key = (id: Id) => depth.get(id) ?? Number.POSITIVE_INFINITY;
  return stageNodes.map((n) => n.id).sort((a, b) => key(a) - key(b) || (index.get(a) ?? 0) - (index.get(b) ?? 0));
}

/** Stages in an order where every stage comes after all its predecessors (Kahn's algorithm). */
export function topologicalOrder<Id extends string | number>(
  nodes: readonly TGraphNode<Id>[],
  edges: readonly TGraphEdge<Id>[],
): Id[] {
  const indegree = new Map<Id, number>(nodes.map((n) => [n.id, 0]));
  for (const e of edges) indegree.set(e.target, (indegree.get(e.target) ?? 0) + 1);
  const out = adjacency(edges);
  const queue = nodes.filter((n) => indegree.get(n.id) === 0).map((n) => n.id);
  const order: Id[] = [];
  while (queue.length > 0) {
    const id = queue.shift()!;
    order.push(id);
    for (const next of out.get(id) ?? []) {
      const left = (indegree.get(next) ?? 0) - 1;
      indegree.set(next, left);
      if (left === 0) queue.push(next);
    }
  }
  return order;
}
