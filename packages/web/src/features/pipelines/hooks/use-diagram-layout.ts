import { useReactFlow } from '@xyflow/react';
import { useEffect, useMemo, useState } from 'react';
import { needsLayout, quickPositions, type TFlowNode, type TGraphSnapshot } from '../lib/graph-model';
import { layoutGraph, LargeGraph, sameLayout, type TLayoutResult } from '../lib/layout';

const fitViewOptions = { padding: 0.15, maxZoom: 1.25 };

/**
 * The nodes a read-only diagram draws (the pipeline screen, the task's Diagram tab), and elk's edge
 * routes for `PipelineDiagram`. A pipeline saved without positions shows the quick layout at once
 * and elk's layout, with its orthogonal routes around the nodes, when ready, then fits the view. A
 * pipeline saved with positions keeps them; if they are elk's own (saved after Organize) its routes
 * are drawn too, else the edges are smooth steps. One hook for both screens, on the same
 * `layoutGraph` as the editor's Organize.
 */
export function useDiagramLayout(base: TGraphSnapshot) {
  const flow = useReactFlow<TFlowNode>();
  const unplaced = needsLayout(base.nodes);
  const [laid, setLaid] = useState<{ from: TGraphSnapshot; result: TLayoutResult } | null>(null);
  const quick = useMemo(() => (unplaced ? quickPositions(base) : null), [unplaced, base]);
  // Saved positions: elk runs in its worker only to learn whether they are its own (small graphs).
  const checkSaved = !unplaced && base.nodes.length < LargeGraph;
  useEffect(() => {
    if (!unplaced && !checkSaved) return;
    let live = true;
    void layoutGraph(
      base.nodes.map((n) => ({ id: n.id, width: n.width, height: n.height })),
      base.edges,
      base.layout,
    ).then((result) => {
      if (!live) return;
      setLaid({ from: base, result });
      if (unplaced) requestAnimationFrame(() => void flow.fitView(fitViewOptions));
    });
    return () => {
      live = false;
    };
  }, [unplaced, checkSaved, base, flow]);
  // A layout of an older graph (another orientation, a live change) is not this one's.
  const current = laid?.from === base ? laid.result : null;
  const nodes = useMemo(() => {
    const positions = current?.positions ?? quick;
    return unplaced && positions
      ? base.nodes.map((n) => ({ ...n, position: positions.get(n.id) ?? n.position }))
      : base.nodes;
  }, [base.nodes, current, quick, unplaced]);
  const routes = useMemo(() => {
    if (!current) return null;
    return unplaced || sameLayout(base.nodes, current.positions) ? current.routes : null;
  }, [current, unplaced, base.nodes]);
  return { nodes, routes };
}
