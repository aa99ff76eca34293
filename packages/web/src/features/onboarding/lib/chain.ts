import type { TGraphSave, TPipeline, TPipelineNode } from '@stageline/shared';

const gap = 220;

/**
 * The graph save of a pipeline whose stages are `names` in a row between its start and end, laid
 * out left to right: what the quickstart's list builder sends to PUT pipelines/{id}/graph/.
 */
export function chainGraph(pipeline: Pick<TPipeline, 'version' | 'nodes'>, names: string[]): TGraphSave {
  const root = pipeline.nodes.find((n) => n.kind === 'root');
  const end = pipeline.nodes.find((n) => n.kind === 'end');
  if (!root || !end) throw new Error('A pipeline always has a start and an end.');
  const ids = [root.id, ...names.map((_, i) => `stage-${i + 1}`), end.id];
  return {
    version: pipeline.version,
    layout: 'horizontal',
    nodes: [
      { id: root.id, kind: 'root', name: root.name, x: 0, y: 0 },
      ...names.map((name, i) => ({ tmp_id: `stage-${i + 1}`, kind: 'stage' as const, name, x: gap * (i + 1), y: 0 })),
      { id: end.id, kind: 'end', name: end.name, x: gap * (names.length + 1), y: 0 },
    ],
    edges: ids.slice(1).map((target, i) => ({ source: ids[i]!, target })),
  };
}

/** Start, the stages from left to right (then top to bottom), End: a row to draw any pipeline as. */
export function orderedStages(pipeline: Pick<TPipeline, 'nodes' | 'layout'>): TPipelineNode[] {
  const rank = { root: 0, stage: 1, end: 2 } as const;
  const along = pipeline.layout === 'horizontal' ? ('x' as const) : ('y' as const);
  const across = along === 'x' ? ('y' as const) : ('x' as const);
  return [...pipeline.nodes].sort(
    (a, b) => rank[a.kind] - rank[b.kind] || a[along] - b[along] || a[across] - b[across] || a.id - b.id,
  );
}
