import type { TPipeline, TPipelineNode } from '@stageline/shared';

const settings = {
  description: '',
  todo_enabled: true,
  review_mode: 'each_immediate',
  skip_review_if_no_reviewers: false,
  accept_edit_as_done: false,
  default_assignees: [],
  default_reviewers: [],
  default_due_days: null,
  default_due_date: null,
} as const;

/** A pipeline node for tests and mocked screens. */
export function buildNode(overrides: Partial<TPipelineNode> & Pick<TPipelineNode, 'id'>): TPipelineNode {
  return {
    ...settings,
    default_assignees: [],
    default_reviewers: [],
    kind: 'stage',
    name: `Stage ${overrides.id}`,
    x: 0,
    y: 0,
    ...overrides,
  };
}

const zero = { todo: 0, in_progress: 0, review: 0, edit: 0, done: 0, overdue: 0 };

/** Start → stages in a chain → End, or a given graph; ids 1 (root) and 2 (end), stages from 10. */
export function buildPipeline(
  options: { stages?: number; layout?: 'horizontal' | 'vertical'; version?: number } = {},
): TPipeline {
  const count = options.stages ?? 2;
  const stageIds = Array.from({ length: count }, (_, i) => 10 + i);
  const nodes = [
    buildNode({ id: 1, kind: 'root', name: 'Start', x: 0, y: 0 }),
    ...stageIds.map((id, i) => buildNode({ id, x: 250 * (i + 1), y: 0 })),
    buildNode({ id: 2, kind: 'end', name: 'End', x: 250 * (count + 1), y: 0 }),
  ];
  const chain = [1, ...stageIds, 2];
  const edges = chain.slice(1).map((target, i) => ({ source: chain[i]!, target }));
  return {
    id: 7,
    project: 3,
    name: 'Pipeline',
    description: '',
    layout: options.layout ?? 'horizontal',
    version: options.version ?? 1,
    stages_count: count,
    units_count: 0,
    task_counters: { ...zero },
    updated_at: '2025-01-01T00:00:00.000Z',
    nodes,
    edges,
    stage_counters: Object.fromEntries(stageIds.map((id) => [String(id), { ...zero }])),
  };
}
