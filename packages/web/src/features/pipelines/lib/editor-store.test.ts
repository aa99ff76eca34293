import { describe, expect, it } from 'vitest';
import { createEditorStore, snapshotToStored } from './editor-store';
import { buildNode, buildPipeline } from '../../../../test/pipelines';

describe('editor store', () => {
  it('adds, connects, undoes and redoes', () => {
    const store = createEditorStore(buildPipeline({ stages: 1 }));
    const s = () => store.getState();
    expect(s().dirty).toBe(false);
    const id = s().addStage({ x: 100, y: 100 }, 'New');
    expect(s().dirty).toBe(true);
    expect(s().connect('10', id)).toBeNull();
    expect(s().connect(id, '10')).toBe('pipeline_cycle');
    expect(s().connect(id, '1')).toBe('edge_into_root');
    expect(s().edges).toHaveLength(3);
    s().undo();
    expect(s().edges).toHaveLength(2);
    s().undo();
    expect(s().nodes).toHaveLength(3);
    expect(s().dirty).toBe(false);
    s().redo();
    s().redo();
    expect(s().edges).toHaveLength(3);
  });

  it('adds a stage after another, connected from it, as one undo step', () => {
    const store = createEditorStore(buildPipeline({ stages: 1 }));
    const s = () => store.getState();
    const id = s().addStage({ x: 400, y: 0 }, 'After', '10');
    expect(s().edges.some((e) => e.source === '10' && e.target === id)).toBe(true);
    expect(s().nodes.find((n) => n.id === id)?.selected).toBe(true);
    s().undo();
    expect(s().nodes.some((n) => n.id === id)).toBe(false);
    expect(s().edges.some((e) => e.target === id)).toBe(false);
    // After End nothing can follow (the shared rules): the stage is added unconnected.
    const end = s().nodes.find((n) => n.data.kind === 'end')!.id;
    const lone = s().addStage({ x: 600, y: 0 }, 'Lone', end);
    expect(s().edges.some((e) => e.target === lone)).toBe(false);
    expect(s().connectionError(end, lone)).toBe('edge_out_of_end');
  });

  it('removing a stage drops its links, though React Flow named none (far out it holds no edges)', () => {
    const store = createEditorStore(buildPipeline({ stages: 1 }));
    const s = () => store.getState();
    const id = s().addStage({ x: 400, y: 0 }, 'After', '10');
    const end = s().nodes.find((n) => n.data.kind === 'end')!.id;
    expect(s().connect(id, end)).toBeNull();
    const before = s().edges.length;
    s().onNodesChange([{ type: 'remove', id }]);
    expect(s().nodes.some((n) => n.id === id)).toBe(false);
    expect(s().edges.filter((e) => e.source === id || e.target === id)).toHaveLength(0);
    expect(s().edges).toHaveLength(before - 2);
    // A change that removes nothing keeps the same edges array (the canvas redraws no link).
    const edges = s().edges;
    s().onNodesChange([{ type: 'select', id: '10', selected: true }]);
    expect(s().edges).toBe(edges);
  });

  it('records a drag once, at its end', () => {
    const store = createEditorStore(buildPipeline({ stages: 1 }));
    const s = () => store.getState();
    for (let x = 0; x < 10; x++)
      s().onNodesChange([{ type: 'position', id: '10', position: { x: 300 + x, y: 0 }, dragging: true }]);
    expect(s().history.past).toHaveLength(0);
    s().commit();
    expect(s().history.past).toHaveLength(1);
    s().commit(); // nothing moved since: no extra step
    expect(s().history.past).toHaveLength(1);
    s().undo();
    expect(s().nodes.find((n) => n.id === '10')!.position).toEqual({ x: 250, y: 0 });
  });

  it('a drag touches only the dragged node objects', () => {
    const store = createEditorStore(buildPipeline({ stages: 3 }));
    const before = store.getState().nodes;
    store.getState().onNodesChange([{ type: 'position', id: '11', position: { x: 1, y: 1 }, dragging: true }]);
    const after = store.getState().nodes;
    expect(after.filter((n, i) => n !== before[i]).map((n) => n.id)).toEqual(['11']);
  });

  it('maps tmp ids after save and is clean again', () => {
    const pipeline = buildPipeline({ stages: 1 });
    const store = createEditorStore(pipeline);
    const s = () => store.getState();
    const id = s().addStage({ x: 500, y: 80 }, 'New');
    s().connect('10', id);
    const saved = {
      ...pipeline,
      version: 2,
      nodes: [...pipeline.nodes, { ...pipeline.nodes[1]!, id: 42, name: 'New', x: 500, y: 80 }],
      edges: [...pipeline.edges, { source: 10, target: 42 }],
      id_map: { [id]: 42 },
    };
    s().saved(saved);
    expect(s().nodes.some((n) => n.id === '42')).toBe(true);
    expect(s().edges.some((e) => e.source === '10' && e.target === '42')).toBe(true);
    expect(s().version).toBe(2);
    expect(s().dirty).toBe(false);
  });

  it('restores an unsaved copy with its version and reverts to the last save', () => {
    const pipeline = buildPipeline({ stages: 1, version: 5 });
    const other = createEditorStore(pipeline);
    other.getState().addStage({ x: 1, y: 1 }, 'Extra');
    const stored = { ...snapshotToStored(other.getState(), 4), saved: Date.now() };
    const store = createEditorStore(pipeline);
    store.getState().restore(stored);
    expect(store.getState().nodes).toHaveLength(4);
    expect(store.getState().version).toBe(4);
    expect(store.getState().dirty).toBe(true);
    store.getState().revert();
    expect(store.getState().nodes).toHaveLength(3);
    expect(store.getState().dirty).toBe(false);
    expect(store.getState().version).toBe(5);
  });

  it('toggling the orientation moves handles and is undoable', () => {
    const store = createEditorStore(buildPipeline({ stages: 1 }));
    store.getState().setLayout('vertical');
    expect(store.getState().nodes[1]!.sourcePosition).toBe('bottom');
    expect(store.getState().dirty).toBe(true);
    store.getState().undo();
    expect(store.getState().layout).toBe('horizontal');
  });

  it('opens a pipeline saved without positions on the quick layout, until elk or an edit', () => {
    const base = buildPipeline({ stages: 3 });
    const pipeline = { ...base, nodes: base.nodes.map((n) => buildNode({ ...n, x: 0, y: 0 })) };
    const store = createEditorStore(pipeline);
    const s = () => store.getState();
    expect(s().provisional).toBe(true);
    expect(s().dirty).toBe(false);
    const xs = s().nodes.map((n) => n.position.x);
    expect(new Set(xs).size).toBe(xs.length); // a chain: one node per layer
    s().applyPositions(new Map(s().nodes.map((n, i) => [n.id, { x: 300 * i, y: 10 }])), false);
    expect(s().provisional).toBe(false);
    expect(s().dirty).toBe(false);

    const edited = createEditorStore(pipeline);
    edited.getState().addStage({ x: 5, y: 5 }, 'New');
    expect(edited.getState().provisional).toBe(false);
    expect(createEditorStore(buildPipeline({ stages: 3 })).getState().provisional).toBe(false);
  });
});
