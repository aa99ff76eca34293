import { describe, expect, test } from 'vitest';
import type { TPipelineNode } from '@stageline/shared';
import { chainGraph, orderedStages } from './chain';

const node = (id: number, kind: TPipelineNode['kind'], name: string, x = 0, y = 0) =>
  ({ id, kind, name, x, y }) as TPipelineNode;

describe('chainGraph', () => {
  test('puts the named stages in a row between start and end', () => {
    const graph = chainGraph({ version: 3, nodes: [node(1, 'root', 'Start'), node(2, 'end', 'End')] }, ['A', 'B']);
    expect(graph.version).toBe(3);
    expect(graph.nodes.map((n) => n.name)).toEqual(['Start', 'A', 'B', 'End']);
    expect(graph.edges).toEqual([
      { source: 1, target: 'stage-1' },
      { source: 'stage-1', target: 'stage-2' },
      { source: 'stage-2', target: 2 },
    ]);
  });
});

describe('orderedStages', () => {
  test('start first, end last, stages along the layout', () => {
    const nodes = [
      node(5, 'stage', 'Late', 400),
      node(1, 'end', 'End', 900),
      node(2, 'root', 'Start'),
      node(3, 'stage', 'Early', 100),
    ];
    expect(orderedStages({ nodes, layout: 'horizontal' }).map((n) => n.name)).toEqual([
      'Start',
      'Early',
      'Late',
      'End',
    ]);
  });
});
