import type { TLayout } from '@stageline/shared';
import { NodeSizes, type TFlowNode } from './graph-model';
import type { TPoint } from './layout';

/** Whether a stage placed at `at` would overlap a node (with a margin). */
export function overlaps(nodes: readonly TFlowNode[], at: TPoint) {
  const { width, height } = NodeSizes.stage;
  return nodes.some((n) => {
    const size = NodeSizes[n.data.kind];
    return (
      at.x < n.position.x + size.width + 16 &&
      n.position.x < at.x + width + 16 &&
      at.y < n.position.y + size.height + 16 &&
      n.position.y < at.y + height + 16
    );
  });
}

/** The gap between a new stage and its neighbour along the flow, and across it. */
const Gap = { along: 80, across: 40 };

/**
 * Where the toolbar's "Add stage" puts a stage (decision 200): next to the anchor (the selected
 * stage, else the last stage added, else Start) one step along the flow; when that spot is taken, the
 * nearest free one across the flow (below, above, further below…), then one more step along.
 */
export function nextSpot(nodes: readonly TFlowNode[], layout: TLayout): TPoint {
  const stages = nodes.filter((n) => n.data.kind === 'stage');
  const anchor = stages.find((n) => n.selected) ?? stages.at(-1) ?? nodes.find((n) => n.data.kind === 'root') ?? null;
  const { width, height } = NodeSizes.stage;
  if (!anchor) return { x: 0, y: 0 };
  const size = NodeSizes[anchor.data.kind];
  const horizontal = layout === 'horizontal';
  // Centred across the flow on the anchor.
  const base = horizontal
    ? { x: anchor.position.x + size.width + Gap.along, y: anchor.position.y + (size.height - height) / 2 }
    : { x: anchor.position.x + (size.width - width) / 2, y: anchor.position.y + size.height + Gap.along };
  const along = horizontal ? { x: width + Gap.along, y: 0 } : { x: 0, y: height + Gap.along };
  const across = horizontal ? { x: 0, y: height + Gap.across } : { x: width + Gap.across, y: 0 };
  for (let step = 0; step < 50; step += 1) {
    const start = { x: base.x + along.x * step, y: base.y + along.y * step };
    for (let k = 0; k < 9; k += 1) {
      // 0, +1, -1, +2, -2…: below (or right of) the anchor first.
      const side = k === 0 ? 0 : k % 2 === 1 ? (k + 1) / 2 : -k / 2;
      const spot = { x: start.x + across.x * side, y: start.y + across.y * side };
      if (!overlaps(nodes, spot)) return spot;
    }
  }
  return base;
}
