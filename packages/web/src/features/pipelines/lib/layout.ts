import type { ELK, ElkNode } from 'elkjs/lib/elk-api.js';
import { flowOrder, type TLayout } from '@stageline/shared';

export type TLayoutNode = { id: string; width?: number; height?: number };
export type TLayoutEdge = { source: string; target: string };
export type TPoint = { x: number; y: number };

export const DefaultNodeSize = { width: 200, height: 72 };
/** Between layers (columns of a horizontal pipeline) and between nodes of one layer. */
const Spacing = { layers: 80, nodes: 40 };
/** From this many nodes elk makes one crossing-minimisation pass instead of its default seven. */
const LargeGraph = 100;

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

function elkGraph(nodes: readonly TLayoutNode[], edges: readonly TLayoutEdge[], orientation: TLayout): ElkNode {
  const ids = new Set(nodes.map((n) => n.id));
  return {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': orientation === 'horizontal' ? 'RIGHT' : 'DOWN',
      'elk.layered.spacing.nodeNodeBetweenLayers': String(Spacing.layers),
      'elk.spacing.nodeNode': String(Spacing.nodes),
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
      width: n.width ?? DefaultNodeSize.width,
      height: n.height ?? DefaultNodeSize.height,
    })),
    edges: edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e, index) => ({ id: `e${index}`, sources: [e.source], targets: [e.target] })),
  };
}

/**
 * The "Organize" layout: elk's layered algorithm, left to right for a horizontal pipeline and top
 * to bottom for a vertical one. Pure and promise-based (no DOM), so a Node benchmark can call it;
 * returns each node's top-left corner.
 */
export async function layoutGraph(
  nodes: readonly TLayoutNode[],
  edges: readonly TLayoutEdge[],
  orientation: TLayout,
): Promise<Map<string, TPoint>> {
  const elk = await loadElk();
  const result = await elk.layout(elkGraph(nodes, edges, orientation));
  return new Map((result.children ?? []).map((child) => [child.id, { x: child.x ?? 0, y: child.y ?? 0 }]));
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
