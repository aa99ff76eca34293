import { describe, expect, it } from 'vitest';
import { DefaultNodeSize, layoutGraph, quickLayout, routeKey, sameLayout, type TPoint } from './layout';

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
    const { positions: at } = await layoutGraph(nodes, edges, 'horizontal');
    expect(at.size).toBe(nodes.length);
    for (const e of edges) expect(at.get(e.target)!.x).toBeGreaterThan(at.get(e.source)!.x);
    expect(overlaps(at)).toBe(false);
  });

  it('routes every edge orthogonally from handle to handle, through no node', async () => {
    const { positions: at, routes } = await layoutGraph(nodes, edges, 'horizontal');
    const { width, height } = DefaultNodeSize;
    for (const e of edges) {
      const route = routes.get(routeKey(e.source, e.target))!;
      expect(route.length).toBeGreaterThanOrEqual(2);
      // Starts at the middle of the source's right side, ends at the middle of the target's left side.
      expect(route[0]).toEqual({ x: at.get(e.source)!.x + width, y: at.get(e.source)!.y + height / 2 });
      expect(route.at(-1)).toEqual({ x: at.get(e.target)!.x, y: at.get(e.target)!.y + height / 2 });
      for (let i = 1; i < route.length; i += 1) {
        const [p, q] = [route[i - 1]!, route[i]!];
        expect(p.x === q.x || p.y === q.y).toBe(true); // orthogonal
        for (const [id, box] of at) {
          if (id === e.source || id === e.target) continue;
          const crosses =
            Math.max(p.x, q.x) > box.x &&
            Math.min(p.x, q.x) < box.x + width &&
            Math.max(p.y, q.y) > box.y &&
            Math.min(p.y, q.y) < box.y + height;
          expect(crosses, `${e.source}→${e.target} crosses ${id}`).toBe(false);
        }
      }
    }
  });

  it('ends a vertical route at the top middle of its target', async () => {
    const { positions: at, routes } = await layoutGraph(nodes, edges, 'vertical');
    const route = routes.get(routeKey('a', 'b'))!;
    expect(route.at(-1)).toEqual({ x: at.get('b')!.x + DefaultNodeSize.width / 2, y: at.get('b')!.y });
  });

  it('puts unconnected stages in a row after the flow, not in one column', async () => {
    const loose = ['x1', 'x2', 'x3'].map((id) => ({ id, kind: 'stage' as const }));
    const { positions: at } = await layoutGraph([...nodes, ...loose], edges, 'horizontal');
    expect(overlaps(at)).toBe(false);
    const flowBottom = Math.max(...nodes.map((n) => at.get(n.id)!.y)) + DefaultNodeSize.height;
    const rows = new Set(loose.map((n) => at.get(n.id)!.y));
    expect(rows.size).toBe(1);
    expect([...rows][0]).toBeGreaterThan(flowBottom);
    expect(new Set(loose.map((n) => at.get(n.id)!.x)).size).toBe(3);
  });

  it('knows saved positions that are its own, so their routes can be drawn', async () => {
    const { positions } = await layoutGraph(nodes, edges, 'horizontal');
    const saved = nodes.map((n) => ({ id: n.id, position: { ...positions.get(n.id)! } }));
    expect(sameLayout(saved, positions)).toBe(true);
    saved[2]!.position.y += 40; // moved by hand since
    expect(sameLayout(saved, positions)).toBe(false);
  });
});
