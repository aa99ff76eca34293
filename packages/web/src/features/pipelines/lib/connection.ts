import { wouldCreateCycle, type TGraphErrorCode, type TNodeKind } from '@stageline/shared';

/**
 * Why a connection the user is drawing cannot be made, or null when it can. The rules are the
 * shared graph rules (docs/rules.md §Pipelines); this only asks them about one more edge.
 */
export function connectionError(
  kinds: ReadonlyMap<string, TNodeKind>,
  edges: readonly { source: string; target: string }[],
  source: string,
  target: string,
): TGraphErrorCode | null {
  if (!kinds.has(source) || !kinds.has(target)) return 'missing_node';
  if (source === target) return 'self_loop';
  if (kinds.get(target) === 'root') return 'edge_into_root';
  if (kinds.get(source) === 'end') return 'edge_out_of_end';
  if (edges.some((e) => e.source === source && e.target === target)) return 'duplicate_edge';
  if (wouldCreateCycle(edges, source, target)) return 'pipeline_cycle';
  return null;
}
