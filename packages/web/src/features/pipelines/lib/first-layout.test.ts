import { describe, expect, it } from 'vitest';
import { buildPipeline } from '../../../../test/pipelines';
import { createEditorStore } from './editor-store';
import { firstLayoutOf } from './first-layout';
import { layoutGraph } from './layout';

/** Saved without positions: every node at (0, 0). */
function unplaced() {
  const pipeline = buildPipeline({ stages: 3 });
  return { ...pipeline, nodes: pipeline.nodes.map((n) => ({ ...n, x: 0, y: 0 })) };
}

describe('first layout', () => {
  it('starts elk once per loaded pipeline: the route and the editor share the layout', () => {
    const pipeline = unplaced();
    expect(firstLayoutOf(pipeline)).toBe(firstLayoutOf(pipeline));
    expect(firstLayoutOf(unplaced())).not.toBe(firstLayoutOf(pipeline));
  });

  it('lays out the graph the editor opens with', async () => {
    const pipeline = unplaced();
    const { nodes, edges, layout } = createEditorStore(pipeline).getState();
    const own = await layoutGraph(
      nodes.map((n) => ({ id: n.id, width: n.width, height: n.height })),
      edges,
      layout,
    );
    const { positions } = await firstLayoutOf(pipeline);
    expect([...positions]).toEqual([...own.positions]);
  });
});
