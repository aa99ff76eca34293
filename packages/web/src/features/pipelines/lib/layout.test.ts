import { describe, expect, it } from 'vitest';
import { DefaultNodeSize, layoutGraph, quickLayout, type TPoint } from './layout';

/** Start → a → (b, c) → d → End, plus a → d: a fork, a join and a long edge. */
const nodes = [
  { id: 's', kind: 'root' as const },
  { id: 'a', kind: 'stage' as const },
  { id: 'b', kind: 'stage' as const },
  { id: 'c', kind: 'stage' as const },
  { id: 'd', kind: 'stage' as const },
  { id: 'e', kind: 'end' as const },
];
const edges = [
  { source: 's', target: 'a' },
  { source: 'a', target: 'b' },
  { source: 'a', target: 'c' },
  { source: 'b', target: 'd' },
  { source: 'c', target: 'd' },
  { source: 'a', target: 'd' },
  { source: 'd', target: 'e' },
];

function overlaps(positions: ReadonlyMap<string, TPoint>) {
  const boxes = [...positions.values()];
  return boxes.some((p, i) =>
    boxes.some(
      (q, j) => i < j && Math.abs(p.x - q.x) < DefaultNodeSize.width && Math.abs(p.y - q.y) < DefaultNodeSize.height,
    ),
  );
}

describe('quickLayout', () => {
  it('puts every node after its predecessors, without overlaps', () => {
    const at = quickLayout(nodes, edges, 'horizontal');
    expect(at.size).toBe(nodes.length);
    for (const e of edges) expect(at.get(e.target)!.x).toBeGreaterThan(at.get(e.source)!.x);
    expect(at.get('b')!.x).toBe(at.get('c')!.x);
    expect(overlaps(at)).toBe(false);
  });

  it('runs top to bottom for a vertical pipeline', () => {
    const at = quickLayout(nodes, edges, 'vertical');
    for (const e of edges) expect(at.get(e.target)!.y).toBeGreaterThan(at.get(e.source)!.y);
    expect(at.get('b')!.y).toBe(at.get('c')!.y);
  });

  it('places stages without connections and survives a cycle', () => {
    const at = quickLayout(
      [...nodes, { id: 'x', kind: 'stage' as const }],
      [...edges, { source: 'd', target: 'b' }],
      'horizontal',
    );
    expect(at.size).toBe(nodes.length + 1);
    expect(overlaps(at)).toBe(false);
  });
});

describe('layoutGraph (elk, in-process under Node)', () => {
  it('lays out left to right without overlaps', async () => {
    const at = await layoutGraph(nodes, edges, 'horizontal');
    expect(at.size).toBe(nodes.length);
    for (const e of edges) expect(at.get(e.target)!.x).toBeGreaterThan(at.get(e.source)!.x);
    expect(overlaps(at)).toBe(false);
  });
});
