import type { ELK, ElkNode } from 'elkjs/lib/elk-api.js';
import { flowOrder, type TLayout } from '@stageline/shared';

export type TLayoutNode = { id: string; width?: number; height?: number };
export type TLayoutEdge = { source: string; target: string };
export type TPoint = { x: number; y: number };

export const DefaultNodeSize = { width: 200, height: 72 };
/** Between layers (columns of a horizontal pipeline) and between nodes of one layer. */
const Spacing = { layers: 80, nodes: 40, edges: 20 };
/** From this many nodes elk makes one crossing-minimisation pass instead of its default seven. */
export const LargeGraph = 100;

type TElk = Pick<ELK, 'layout'>;
let elkPromise: Promise<TElk> | null = null;

/**
 * elk is loaded on first use, so neither the app's first chunk nor the view screen carries it. In a
 * browser it runs in a Web Worker: a 500-stage layout takes seconds, and on the main thread those
 * seconds froze the page. Node (tests, `npm run bench`) has no Worker and runs elk in-process.
 * Only the layered algorithm is registered: the others would cost the worker's start for nothing.
 */
function loadElk(): Promise<TElk> {
  elkPromise ??= (async (): Promise<TElk> => {
    if (typeof Worker !== 'undefined') {
      try {
        const { default: ElkApi } = await import('elkjs/lib/elk-api.js');
        return new ElkApi({
          algorithms: ['layered'],
          workerFactory: () => new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' }),
        });
      } catch {
        // A browser that refuses the worker still gets a layout, on the main thread.
      }
    }
    const { default: ElkBundled } = await import('elkjs/lib/elk.bundled.js');
    return new ElkBundled({ algorithms: ['layered'] });
  })();
  return elkPromise;
}

/**
 * Starts elk's worker early (the editor's route module calls it while the pipeline is still being
 * fetched) and runs a tiny layout in it, so elk's classes are initialised before a real layout
 * needs them. Off the main thread; in Node it does nothing.
 */
export function preloadLayout(): void {
  if (typeof Worker === 'undefined' || elkPromise) return;
  void loadElk().then((elk) =>
    elk.layout(elkGraph([{ id: 'a' }, { id: 'b' }, { id: 'c' }], [{ source: 'a', target: 'b' }], 'horizontal')),
  );
}

/** What elk answers: each node's top-left corner, and each drawn edge's orthogonal route. */
export type TLayoutResult = {
  positions: Map<string, TPoint>;
  /** By `routeKey(source, target)`: from the source's handle, through elk's bends, to the target's. */
  routes: Map<string, TPoint[]>;
};

/** The key of an edge's route: the editor's edge id (`graph-model.ts` `edgeId`). */
export const routeKey = (source: string, target: string) => `${source}->${target}`;

const sizeOf = (n: TLayoutNode) => ({
  width: n.width ?? DefaultNodeSize.width,
  height: n.height ?? DefaultNodeSize.height,
});

/**
 * Each node has one port in and one out, fixed at the middle of the sides where the diagram draws its
 * handles (left/right, or top/bottom for a vertical pipeline): elk's routes then start and end where
 * React Flow draws the edge's ends, and its bends go around the nodes.
 */
function ports(n: TLayoutNode, orientation: TLayout) {
  const { width, height } = sizeOf(n);
  const horizontal = orientation === 'horizontal';
  return [
    {
      id: `${n.id}:in`,
      width: 0,
      height: 0,
      x: horizontal ? 0 : width / 2,
      y: horizontal ? height / 2 : 0,
      layoutOptions: { 'elk.port.side': horizontal ? 'WEST' : 'NORTH' },
    },
    {
      id: `${n.id}:out`,
      width: 0,
      height: 0,
      x: horizontal ? width : width / 2,
      y: horizontal ? height / 2 : height,
      layoutOptions: { 'elk.port.side': horizontal ? 'EAST' : 'SOUTH' },
    },
  ];
}

/** The graph elk is given, with our options: exported for the editor bench's plain reference page. */
export function elkGraph(nodes: readonly TLayoutNode[], edges: readonly TLayoutEdge[], orientation: TLayout): ElkNode {
  const ids = new Set(nodes.map((n) => n.id));
  return {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': orientation === 'horizontal' ? 'RIGHT' : 'DOWN',
      'elk.layered.spacing.nodeNodeBetweenLayers': String(Spacing.layers),
      'elk.spacing.nodeNode': String(Spacing.nodes),
      'elk.layered.spacing.edgeNodeBetweenLayers': String(Spacing.edges),
      'elk.spacing.edgeNode': String(Spacing.edges),
      // Brandes–Köpf with one balanced alignment: straight chains, and a compact layer (with the
      // four alignments elk picks from by default, a 500-stage grid came out four times as tall).
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.layered.nodePlacement.bk.fixedAlignment': 'BALANCED',
      'elk.edgeRouting': 'ORTHOGONAL',
      // A large pipeline gets one crossing-minimisation pass: most of the quality, a fraction of the time.
      ...(nodes.length >= LargeGraph ? { 'elk.layered.thoroughness': '1' } : {}),
    },
    children: nodes.map((n) => ({
      id: n.id,
      ...sizeOf(n),
      layoutOptions: { 'elk.portConstraints': 'FIXED_POS' },
      ports: ports(n, orientation),
    })),
    edges: edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e) => ({ id: routeKey(e.source, e.target), sources: [`${e.source}:out`], targets: [`${e.target}:in`] })),
  };
}

/**
 * Stages with no connection at all, in a row after the flow (under a horizontal pipeline, beside a
 * vertical one), wrapped at the flow's breadth: elk would pack each as its own component, and they
 * came out stacked in one column beside Start. Positions are relative to the flow's box.
 */
function placeLoose(
  loose: readonly TLayoutNode[],
  flow: { width: number; height: number },
  orientation: TLayout,
): Map<string, TPoint> {
  const horizontal = orientation === 'horizontal';
  const breadth = Math.max(horizontal ? flow.width : flow.height, 3 * (DefaultNodeSize.width + Spacing.nodes));
  const start = flow.width === 0 && flow.height === 0 ? 0 : (horizontal ? flow.height : flow.width) + Spacing.layers;
  const at = new Map<string, TPoint>();
  let along = 0;
  let across = start;
  let thickness = 0;
  for (const n of loose) {
    const { width, height } = sizeOf(n);
    const [length, depth] = horizontal ? [width, height] : [height, width];
    if (along > 0 && along + length > breadth) {
      along = 0;
      across += thickness + Spacing.nodes;
      thickness = 0;
    }
    at.set(n.id, horizontal ? { x: along, y: across } : { x: across, y: along });
    along += length + Spacing.nodes;
    thickness = Math.max(thickness, depth);
  }
  return at;
}

/**
 * The "Organize" layout: elk's layered algorithm, left to right for a horizontal pipeline and top
 * to bottom for a vertical one, with orthogonal edge routes around the nodes (drawn from their bend
 * points by `StageEdge`); unconnected stages in a row after the flow. Pure and promise-based (no
 * DOM), so a Node benchmark can call it; positions are each node's top-left corner.
 */
export async function layoutGraph(
  nodes: readonly TLayoutNode[],
  edges: readonly TLayoutEdge[],
  orientation: TLayout,
): Promise<TLayoutResult> {
  const linked = new Set(edges.flatMap((e) => [e.source, e.target]));
  const connected = nodes.filter((n) => linked.has(n.id));
  const loose = nodes.filter((n) => !linked.has(n.id));
  const positions = new Map<string, TPoint>();
  const routes = new Map<string, TPoint[]>();
  let box = { width: 0, height: 0 };
  if (connected.length > 0) {
    const elk = await loadElk();
    const result = await elk.layout(elkGraph(connected, edges, orientation));
    for (const child of result.children ?? []) positions.set(child.id, { x: child.x ?? 0, y: child.y ?? 0 });
    for (const edge of result.edges ?? []) {
      const section = edge.sections?.[0];
      if (!section) continue;
      routes.set(
        edge.id,
        [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map(({ x, y }) => ({ x, y })),
      );
    }
    box = { width: result.width ?? 0, height: result.height ?? 0 };
  }
  for (const [id, p] of placeLoose(loose, box, orientation)) positions.set(id, p);
  return { positions, routes };
}

/**
 * Whether every node stands where `positions` (a layout of elk's) puts it, to the pixel: a pipeline
 * saved right after Organize, whose edges can then follow that layout's routes.
 */
export function sameLayout(
  nodes: readonly { id: string; position: TPoint }[],
  positions: ReadonlyMap<string, TPoint>,
): boolean {
  return nodes.every((n) => {
    const p = positions.get(n.id);
    return !!p && Math.abs(p.x - n.position.x) < 1 && Math.abs(p.y - n.position.y) < 1;
  });
}

/**
 * A provisional layout in one pass (no elk, no worker): Start in the first layer, each stage in the
 * layer of its flow-order depth (the shared `flowOrder`), End in the last, each layer centred on
 * the first. What a pipeline saved without positions shows at once while elk works; not tuned
 * against crossings.
 */
export function quickLayout(
  nodes: readonly (TLayoutNode & { kind: 'root' | 'stage' | 'end' })[],
  edges: readonly TLayoutEdge[],
  orientation: TLayout,
): Map<string, TPoint> {
  const size = (n: TLayoutNode) => ({
    width: n.width ?? DefaultNodeSize.width,
    height: n.height ?? DefaultNodeSize.height,
  });
  const order = flowOrder(nodes, edges);
  const depth = new Map<string, number>();
  const parents = new Map<string, string[]>();
  for (const e of edges) parents.set(e.target, [...(parents.get(e.target) ?? []), e.source]);
  for (const id of order) depth.set(id, Math.max(0, ...(parents.get(id) ?? []).map((p) => (depth.get(p) ?? -1) + 1)));
  const stageLayers = Math.max(0, ...depth.values()) + 1;
  const layers: TLayoutNode[][] = [[], ...Array.from({ length: stageLayers }, () => []), []];
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const n of nodes) if (n.kind === 'root') layers[0]!.push(n);
  for (const id of order) layers[(depth.get(id) ?? 0) + 1]!.push(byId.get(id)!);
  for (const n of nodes) if (n.kind === 'end') layers[stageLayers + 1]!.push(n);

  const horizontal = orientation === 'horizontal';
  const along = (n: TLayoutNode) => (horizontal ? size(n).width : size(n).height);
  const across = (n: TLayoutNode) => (horizontal ? size(n).height : size(n).width);
  const extent = (layer: readonly TLayoutNode[]) =>
    layer.reduce((sum, n) => sum + across(n), 0) + Math.max(0, layer.length - 1) * Spacing.nodes;
  const widest = Math.max(...layers.map(extent));
  const positions = new Map<string, TPoint>();
  let main = 0;
  for (const layer of layers.filter((l) => l.length > 0)) {
    let cross = (widest - extent(layer)) / 2;
    const thickness = Math.max(...layer.map(along));
    for (const n of layer) {
      const offset = (thickness - along(n)) / 2;
      positions.set(n.id, horizontal ? { x: main + offset, y: cross } : { x: cross, y: main + offset });
      cross += across(n) + Spacing.nodes;
    }
    main += thickness + Spacing.layers;
  }
  return positions;
}
