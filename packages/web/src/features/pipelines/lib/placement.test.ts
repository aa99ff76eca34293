import { describe, expect, it } from 'vitest';
import { makeFlowNode, NodeSizes, type TFlowNode } from './graph-model';
import { nextSpot, overlaps } from './placement';

const node = (id: string, kind: 'root' | 'stage' | 'end', x: number, y: number, selected = false): TFlowNode => ({
  ...makeFlowNode({ id, kind, name: id, x, y }, 'horizontal'),
  selected,
});

describe('nextSpot', () => {
  const graph = [node('start', 'root', 0, 16), node('a', 'stage', 200, 0), node('b', 'stage', 480, 0)];

  it('puts the stage after the last stage, in line with it, clear of every node', () => {
    const spot = nextSpot(graph, 'horizontal');
    expect(spot.x).toBeGreaterThan(480 + NodeSizes.stage.width);
    expect(spot.y).toBe(0);
    expect(overlaps(graph, spot)).toBe(false);
  });

  it('goes beside the selected stage, and across the flow when the spot after it is taken', () => {
    const selected = graph.map((n) => (n.id === 'a' ? { ...n, selected: true } : n));
    const spot = nextSpot(selected, 'horizontal');
    expect(overlaps(selected, spot)).toBe(false);
    // b sits right after a: the new stage goes below that spot, not far away.
    expect(spot.x).toBe(200 + NodeSizes.stage.width + 80);
    expect(spot.y).toBeGreaterThan(0);
  });

  it('follows a vertical flow downwards', () => {
    const vertical = [node('start', 'root', 44, 0), node('a', 'stage', 0, 120)];
    const spot = nextSpot(vertical, 'vertical');
    expect(spot.y).toBeGreaterThan(120 + NodeSizes.stage.height);
    expect(overlaps(vertical, spot)).toBe(false);
  });

  it('starts after Start when there is no stage', () => {
    const spot = nextSpot([node('start', 'root', 0, 0), node('end', 'end', 600, 0)], 'horizontal');
    expect(spot.x).toBe(NodeSizes.root.width + 80);
  });
});
