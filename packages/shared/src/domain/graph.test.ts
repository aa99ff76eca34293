import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  connectOrphans,
  findCycle,
  findOrphans,
  flowOrder,
  stagePredecessors,
  topologicalOrder,
  validateGraph,
  wouldCreateCycle,
  type TGraphEdge,
  type TGraphNode,
} from './graph';

const root: TGraphNode<string> = { id: 'root', kind: 'root' };
const end: TGraphNode<string> = { id: 'end', kind: 'end' };
const stage = (id: string): TGraphNode<string> => ({ id, kind: 'stage' });
const edge = (source: string, target: string): TGraphEdge<string> => ({ source, target });
const codes = (errors: { code: string }[]) => errors.map((e) => e.code);

describe('validateGraph', () => {
  const nodes = [root, stage('a'), stage('b'), end];

  it('accepts a valid diamond-free chain', () => {
    expect(validateGraph(nodes, [edge('root', 'a'), edge('a', 'b'), edge('b', 'end')])).toEqual([]);
  });

  it('accepts a graph with orphans: they count as fed by start and leading to end', () => {
    expect(validateGraph(nodes, [])).toEqual([]);
  });

  it('rejects a cycle and names its nodes', () => {
    const errors = validateGraph(nodes, [edge('a', 'b'), edge('b', 'a')]);
    expect(codes(errors)).toEqual(['pipeline_cycle']);
    expect(errors[0]!.nodes).toEqual(['a', 'b', 'a']);
  });

  it('rejects edges into root and out of end', () => {
    expect(codes(validateGraph(nodes, [edge('a', 'root')]))).toContain('edge_into_root');
    expect(codes(validateGraph(nodes, [edge('end', 'a')]))).toContain('edge_out_of_end');
  });

  it('rejects an edge to a missing node, a duplicate edge and a self-loop', () => {
    expect(codes(validateGraph(nodes, [edge('a', 'zzz')]))).toEqual(['missing_node']);
    expect(codes(validateGraph(nodes, [edge('a', 'b'), edge('a', 'b')]))).toEqual(['duplicate_edge']);
    expect(codes(validateGraph(nodes, [edge('a', 'a')]))).toEqual(['self_loop']);
  });

  it('needs exactly one root and one end, and unique ids', () => {
    expect(codes(validateGraph([stage('a'), end], []))).toEqual(['missing_root']);
    expect(codes(validateGraph([root, stage('a')], []))).toEqual(['missing_end']);
    expect(codes(validateGraph([root, { id: 'r2', kind: 'root' }, end], []))).toEqual(['multiple_root']);
    expect(codes(validateGraph([root, end, { id: 'e2', kind: 'end' }], []))).toEqual(['multiple_end']);
    expect(codes(validateGraph([root, stage('a'), stage('a'), end], []))).toEqual(['duplicate_node']);
  });

  it('allows 500 stages and refuses 501', () => {
    const many = (n: number) => [root, end, ...Array.from({ length: n }, (_, i) => stage(`s${i}`))];
    expect(validateGraph(many(500), [])).toEqual([]);
    expect(codes(validateGraph(many(501), []))).toEqual(['too_many_stages']);
  });

  it('handles a 500-stage chain without deep recursion', () => {
    const ids = Array.from({ length: 500 }, (_, i) => `s${i}`);
    const chain = ids.slice(1).map((id, i) => edge(ids[i]!, id));
    expect(validateGraph([root, end, ...ids.map(stage)], chain)).toEqual([]);
    expect(codes(validateGraph([root, end, ...ids.map(stage)], [...chain, edge('s499', 's0')]))).toEqual([
      'pipeline_cycle',
    ]);
  });
});

describe('wouldCreateCycle', () => {
  const edges = [edge('a', 'b'), edge('b', 'c')];
  it('sees a connection that closes a loop', () => {
    expect(wouldCreateCycle(edges, 'c', 'a')).toBe(true);
    expect(wouldCreateCycle(edges, 'a', 'a')).toBe(true);
  });
  it('allows a connection that does not', () => {
    expect(wouldCreateCycle(edges, 'a', 'c')).toBe(false);
    expect(wouldCreateCycle(edges, 'c', 'd')).toBe(false);
  });
});

describe('orphans', () => {
  it('finds stages without input or output and connects them to start and end', () => {
    const nodes = [root, stage('a'), stage('b'), end];
    const edges = [edge('a', 'b')];
    expect(findOrphans(nodes, edges)).toEqual({ noInput: ['a'], noOutput: ['b'] });
    expect(connectOrphans(nodes, edges)).toEqual([edge('a', 'b'), edge('root', 'a'), edge('b', 'end')]);
    expect(findOrphans(nodes, connectOrphans(nodes, edges))).toEqual({ noInput: [], noOutput: [] });
  });
});

describe('stagePredecessors and topologicalOrder', () => {
  const nodes = [root, stage('a'), stage('b'), stage('c'), end];
  const edges = [edge('root', 'a'), edge('root', 'b'), edge('a', 'c'), edge('b', 'c'), edge('c', 'end')];
  it('lists only stage predecessors (the start counts as done)', () => {
    expect(stagePredecessors(nodes, edges, 'a')).toEqual([]);
    expect(stagePredecessors(nodes, edges, 'c').sort()).toEqual(['a', 'b']);
  });
  it('orders every stage after its predecessors', () => {
    const order = topologicalOrder(nodes, edges);
    for (const e of edges) expect(order.indexOf(e.source)).toBeLessThan(order.indexOf(e.target));
  });
});

describe('flowOrder', () => {
  it('puts stages by depth from the start, not by id, and leaves out start and end', () => {
    // Ids in creation order: the last stage drawn comes first in the flow.
    const nodes = [root, stage('comp'), stage('anim'), stage('model'), end];
    const edges = [edge('root', 'model'), edge('model', 'anim'), edge('anim', 'comp'), edge('comp', 'end')];
    expect(flowOrder(nodes, edges)).toEqual(['model', 'anim', 'comp']);
  });

  it('breaks ties by input order, and a stage waits for its longest chain', () => {
    const nodes = [root, stage('b'), stage('a'), stage('c'), stage('d'), end];
    // a → c → d and b → d: d is at depth 2 (after c), a and b share depth 0 in input order.
    const edges = [
      edge('root', 'a'),
      edge('root', 'b'),
      edge('a', 'c'),
      edge('c', 'd'),
      edge('b', 'd'),
      edge('d', 'end'),
    ];
    expect(flowOrder(nodes, edges)).toEqual(['b', 'a', 'c', 'd']);
  });

  it('counts a stage with no input as fed by the start', () => {
    const nodes = [root, stage('x'), stage('orphan'), end];
    expect(flowOrder(nodes, [edge('root', 'x'), edge('x', 'end')])).toEqual(['x', 'orphan']);
    expect(flowOrder(nodes, [edge('x', 'orphan')])).toEqual(['x', 'orphan']);
  });

  it('is stable: the same graph in the same input order always gives the same order', () => {
    const nodes = [root, ...Array.from({ length: 6 }, (_, i) => stage(`s${i}`)), end];
    expect(flowOrder(nodes, [])).toEqual(['s0', 's1', 's2', 's3', 's4', 's5']);
  });

  it('puts stages on a cycle last, in input order, without looping', () => {
    const nodes = [root, stage('p'), stage('q'), stage('r'), end];
    expect(flowOrder(nodes, [edge('p', 'q'), edge('q', 'p'), edge('root', 'r')])).toEqual(['r', 'p', 'q']);
  });
});

describe('properties', () => {
  /** Random graphs on n stages with arbitrary edges between them. */
  const arbitraryGraph = fc.integer({ min: 1, max: 25 }).chain((n) =>
    fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 60 }).map((pairs) => ({
      nodes: Array.from({ length: n }, (_, i) => stage(`s${i}`)),
      edges: pairs.map(([a, b]) => edge(`s${a}`, `s${b}`)),
    })),
  );

  it('flowOrder lists every stage once, each after all its predecessors', () => {
    fc.assert(
      fc.property(arbitraryGraph, ({ nodes, edges }) => {
        const acyclic = edges.filter((e) => Number(e.source.slice(1)) < Number(e.target.slice(1)));
        const order = flowOrder(nodes, acyclic);
        expect([...order].sort()).toEqual(nodes.map((n) => n.id).sort());
        for (const e of acyclic) expect(order.indexOf(e.source)).toBeLessThan(order.indexOf(e.target));
      }),
    );
  });

  it('findCycle answers null exactly when a topological order covers every node', () => {
    fc.assert(
      fc.property(arbitraryGraph, ({ nodes, edges }) => {
        const cycle = findCycle(
          nodes.map((n) => n.id),
          edges,
        );
        const order = topologicalOrder(nodes, edges);
        expect(cycle === null).toBe(order.length === nodes.length);
        if (cycle) {
          // The reported cycle is real: consecutive nodes are joined by edges.
          for (let i = 0; i + 1 < cycle.length; i++) {
            expect(edges.some((e) => e.source === cycle[i] && e.target === cycle[i + 1])).toBe(true);
          }
          expect(cycle[0]).toBe(cycle[cycle.length - 1]);
        }
      }),
    );
  });

  it('wouldCreateCycle predicts whether adding the edge makes the graph cyclic', () => {
    fc.assert(
      fc.property(arbitraryGraph, fc.nat(24), fc.nat(24), ({ nodes, edges }, a, b) => {
        const ids = nodes.map((n) => n.id);
        if (findCycle(ids, edges)) return; // only meaningful on acyclic graphs
        const source = ids[a % ids.length]!;
        const target = ids[b % ids.length]!;
        const predicted = wouldCreateCycle(edges, source, target);
        expect(predicted).toBe(findCycle(ids, [...edges, edge(source, target)]) !== null);
      }),
    );
  });
});
