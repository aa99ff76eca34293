import type { TPipeline } from '@stageline/shared';
import { needsLayout, pipelineToSnapshot } from './graph-model';
import { layoutGraph, type TLayoutResult } from './layout';

/** elk's first layouts, by the pipeline data they were started from (query data is never mutated). */
const started = new WeakMap<TPipeline, Promise<TLayoutResult>>();

/**
 * elk's layout of a pipeline saved without positions, started once per loaded pipeline: the
 * editor's route starts it the moment the data arrives (`prefetchEditor`), and the editor picks the
 * same promise up when it opens instead of starting elk only after its first render. The graph is
 * the one the editor store opens with (`pipelineToSnapshot`: same ids, sizes, edges, orientation).
 */
export function firstLayoutOf(pipeline: TPipeline): Promise<TLayoutResult> {
  let result = started.get(pipeline);
  if (!result) {
    const { nodes, edges, layout } = pipelineToSnapshot(pipeline);
    performance.mark('pipeline:elk-start');
    result = layoutGraph(
      nodes.map((n) => ({ id: n.id, width: n.width, height: n.height })),
      edges,
      layout,
    ).then((laid) => {
      // Read by `npm run bench -- pipeline-editor` (BENCH_PROFILE's timeline).
      performance.mark('pipeline:elk-done');
      return laid;
    });
    started.set(pipeline, result);
  }
  return result;
}

/** Starts elk on a freshly loaded pipeline when it has no positions; a placed one costs nothing. */
export function startFirstLayout(pipeline: TPipeline): void {
  if (needsLayout(pipelineToSnapshot(pipeline).nodes)) void firstLayoutOf(pipeline).catch(() => undefined);
}
