import type { ELK } from 'elkjs/lib/elk-api.js';
import type { TLayout } from '@stageline/shared';

export type TLayoutNode = { id: string; width?: number; height?: number };
export type TLayoutEdge = { source: string; target: string };
export type TPoint = { x: number; y: number };

export const DefaultNodeSize = { width: 200, height: 72 };

type TElk = Pick<ELK, 'layout'>;
let elkPromise: Promise<TElk> | null = null;

/**
 * elk is loaded on first use, so neither the app's first chunk nor the view screen carries it. In a
 * browser it runs in a Web Worker: a 500-stage layout takes seconds, and on the main thread those
 * seconds froze the page. Node (tests, `npm run bench`) has no Worker and runs elk in-process.
 */
function loadElk(): Promise<TElk> {
  elkPromise ??= (async (): Promise<TElk> => {
    if (typeof Worker !== 'undefined') {
      try {
        const { default: ElkApi } = await import('elkjs/lib/elk-api.js');
        return new ElkApi({
          workerFactory: () => new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' }),
        });
      } catch {
        // A browser that refuses the worker still gets a layout, on the main thread.
      }
    }
    const { default: ElkBundled } = await import('elkjs/lib/elk.bundled.js');
    return new ElkBundled();
  })();
  return elkPromise;
}

/** Starts loading elk (and its worker) early, e.g. while the pipeline itself is still loading. */
export function preloadLayout(): void {
  if (typeof Worker !== 'undefined') void loadElk();
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
  const ids = new Set(nodes.map((n) => n.id));
  const result = await elk.layout({
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': orientation === 'horizontal' ? 'RIGHT' : 'DOWN',
      'elk.layered.spacing.nodeNodeBetweenLayers': '80',
      'elk.spacing.nodeNode': '40',
      'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
      'elk.edgeRouting': 'ORTHOGONAL',
      // Fewer crossing-minimisation sweeps: 500-stage pipelines lay out in a fraction of the time.
      'elk.layered.thoroughness': '1',
    },
    children: nodes.map((n) => ({
      id: n.id,
      width: n.width ?? DefaultNodeSize.width,
      height: n.height ?? DefaultNodeSize.height,
    })),
    edges: edges
      .filter((e) => ids.has(e.source) && ids.has(e.target))
      .map((e, index) => ({ id: `e${index}`, sources: [e.source], targets: [e.target] })),
  });
  return new Map((result.children ?? []).map((child) => [child.id, { x: child.x ?? 0, y: child.y ?? 0 }]));
}
