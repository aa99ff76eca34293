import { Position, ViewportPortal } from '@xyflow/react';
import { memo, useMemo } from 'react';
import type { TFlowEdge, TFlowNode } from '../lib/graph-model';
import { routeKey, type TPoint } from '../lib/layout';
import { linkPath, type TLinkEnd } from './flow-edge';
import classes from './flow.module.css';

/**
 * Where a link meets `node`'s handle of `type`: the handle's outer side, as React Flow ends an edge
 * (its `getHandlePosition`), from the handles every node declares (`nodeHandles`).
 */
function handleEnd(node: TFlowNode, type: 'source' | 'target'): TLinkEnd | null {
  const handle = node.handles?.find((h) => h.type === type);
  if (!handle) return null;
  const x = node.position.x + handle.x;
  const y = node.position.y + handle.y;
  const width = handle.width ?? 0;
  const height = handle.height ?? 0;
  switch (handle.position) {
    case Position.Top:
      return { x: x + width / 2, y, position: handle.position };
    case Position.Right:
      return { x: x + width, y: y + height / 2, position: handle.position };
    case Position.Bottom:
      return { x: x + width / 2, y: y + height, position: handle.position };
    default:
      return { x, y: y + height / 2, position: Position.Left };
  }
}

/** Every link's path, as `StageEdge` draws it (`linkPath`), the selected ones apart. */
function linkPaths(
  nodes: readonly TFlowNode[],
  edges: readonly TFlowEdge[],
  routes: ReadonlyMap<string, TPoint[]> | null,
) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  let plain = '';
  let selected = '';
  let count = 0;
  for (const edge of edges) {
    const source = byId.get(edge.source);
    const target = byId.get(edge.target);
    const from = source && handleEnd(source, 'source');
    const to = target && handleEnd(target, 'target');
    if (!from || !to) continue;
    const { path } = linkPath(routes?.get(routeKey(edge.source, edge.target)), from, to);
    if (edge.selected) selected += path;
    else plain += path;
    count += 1;
  }
  return { plain, selected, count };
}

/**
 * The links of a diagram seen from far out (below `TinyZoom`, where a stage is a bare box of a few
 * pixels): one path for them all instead of a React Flow edge each, which is a component, a store
 * subscription and two SVG paths per link, 670 of them in a 500-stage pipeline's first render
 * (docs/decisions.md, entry 137). The stroke keeps one pixel at any zoom, so the links stay visible
 * where an edge's own stroke would be a twentieth of a pixel. Decorative: a link has no pointer or
 * keyboard target this far out (its React Flow edge comes back with zooming in), and assistive
 * technology reads each stage by its name.
 */
export const FarLinks = memo(function FarLinks({
  nodes,
  edges,
  routes,
}: {
  nodes: readonly TFlowNode[];
  edges: readonly TFlowEdge[];
  routes: ReadonlyMap<string, TPoint[]> | null;
}) {
  const { plain, selected, count } = useMemo(() => linkPaths(nodes, edges, routes), [nodes, edges, routes]);
  return (
    <ViewportPortal>
      <svg className={classes.farLinks} aria-hidden="true" data-testid="flow-far-links" data-links={count}>
        {plain ? <path d={plain} /> : null}
        {selected ? <path d={selected} className={classes.farLinkSelected} /> : null}
      </svg>
    </ViewportPortal>
  );
});
