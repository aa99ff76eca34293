import { describe, expect, it } from 'vitest';
import { ZGraphSave } from '@stageline/shared';
import { buildPipeline } from '../../../../test/pipelines';
import {
  applyIdMap,
  buildGraphSave,
  graphSignature,
  makeFlowEdge,
  makeFlowNode,
  pipelineToSnapshot,
  tasksRemovedBy,
} from './graph-model';

describe('graph save payload', () => {
  it('sends existing nodes by id, new ones by tmp_id, edges by either, with the version', () => {
    const snapshot = pipelineToSnapshot(buildPipeline({ stages: 1 }));
    const added = makeFlowNode({ id: 'tmp_abc', kind: 'stage', name: 'New', x: 10.4, y: 20.6 }, 'horizontal');
    const payload = buildGraphSave(
      {
        ...snapshot,
        nodes: [...snapshot.nodes, added],
        edges: [...snapshot.edges, makeFlowEdge('10', 'tmp_abc'), makeFlowEdge('tmp_abc', '2')],
      },
      4,
    );
    expect(ZGraphSave.safeParse(payload).success).toBe(true);
    expect(payload.version).toBe(4);
    expect(payload.layout).toBe('horizontal');
    expect(payload.nodes.find((n) => n.tmp_id === 'tmp_abc')).toEqual({
      tmp_id: 'tmp_abc',
      kind: 'stage',
      name: 'New',
      x: 10,
      y: 21,
    });
    expect(payload.nodes.find((n) => n.id === 10)).toMatchObject({ id: 10, kind: 'stage' });
    expect(payload.nodes.every((n) => (n.id === undefined) !== (n.tmp_id === undefined))).toBe(true);
    expect(payload.edges).toContainEqual({ source: 10, target: 'tmp_abc' });
    expect(payload.edges).toContainEqual({ source: 'tmp_abc', target: 2 });
    expect(payload.edges).toContainEqual({ source: 1, target: 10 });
  });
});

describe('applyIdMap', () => {
  it('renames client keys in nodes and edges and keeps positions', () => {
    const snapshot = pipelineToSnapshot(buildPipeline({ stages: 1 }));
    const added = {
      ...makeFlowNode({ id: 'tmp_x', kind: 'stage', name: 'New', x: 5, y: 6 }, 'horizontal'),
      selected: true,
    };
    const mapped = applyIdMap(
      { ...snapshot, nodes: [...snapshot.nodes, added], edges: [...snapshot.edges, makeFlowEdge('tmp_x', '2')] },
      { tmp_x: 99 },
    );
    const node = mapped.nodes.find((n) => n.id === '99')!;
    expect(node.position).toEqual({ x: 5, y: 6 });
    expect(node.selected).toBe(true);
    expect(mapped.edges).toContainEqual(expect.objectContaining({ id: '99->2', source: '99', target: '2' }));
    expect(mapped.nodes.some((n) => n.id === 'tmp_x')).toBe(false);
    // Untouched nodes keep their identity (no re-render of the whole diagram).
    expect(mapped.nodes[0]).toBe(snapshot.nodes[0]);
  });
});

describe('snapshots', () => {
  it('transposes positions and moves handles when the orientation is overridden', () => {
    const pipeline = buildPipeline({ stages: 1, layout: 'horizontal' });
    const vertical = pipelineToSnapshot(pipeline, 'vertical');
    const stage = vertical.nodes.find((n) => n.id === '10')!;
    expect(stage.position).toEqual({ x: 0, y: 250 });
    expect(stage.sourcePosition).toBe('bottom');
    expect(stage.targetPosition).toBe('top');
    expect(vertical.nodes.find((n) => n.id === '1')!.deletable).toBe(false);
  });

  it('signature ignores sub-pixel moves and edge order', () => {
    const a = pipelineToSnapshot(buildPipeline());
    const b = {
      ...a,
      edges: [...a.edges].reverse(),
      nodes: a.nodes.map((n) => ({ ...n, position: { x: n.position.x + 0.2, y: n.position.y } })),
    };
    expect(graphSignature(a)).toBe(graphSignature(b));
  });

  it('counts the tasks deleted stages take with them', () => {
    const pipeline = buildPipeline({ stages: 2 });
    pipeline.stage_counters['10'] = { todo: 1, in_progress: 2, review: 0, edit: 0, done: 3, overdue: 1 };
    const snapshot = pipelineToSnapshot(pipeline);
    expect(tasksRemovedBy(snapshot, pipeline)).toBe(0);
    expect(tasksRemovedBy({ ...snapshot, nodes: snapshot.nodes.filter((n) => n.id !== '10') }, pipeline)).toBe(6);
  });
});
