import {
  type TLayout,
  type TPipeline,
  type TPipelineNode,
  type TPipelineSummary,
  type TStage,
  type TTaskCountersDto,
} from '@stageline/shared';
import { reviewDefaultsOf } from '../projects';
import { zeroCounters } from '../tasks';
import type { PipelineRow, StageRow } from './policy';

/** Counters of tasks by pipeline or stage id (`countTasks` of the tasks feature); absent: no task. */
export type Counters = ReadonlyMap<number, TTaskCountersDto>;
const countersOf = (counters: Counters, id: number): TTaskCountersDto => counters.get(id) ?? zeroCounters();

const asLayout = (value: string): TLayout => (value === 'horizontal' ? 'horizontal' : 'vertical');
const asKind = (value: string): TPipelineNode['kind'] => (value === 'root' || value === 'end' ? value : 'stage');

/** People of a stage: default assignees and reviewers, by stage id. */
export type People = { assignees: Map<number, number[]>; reviewers: Map<number, number[]> };

/** One node of the diagram with its settings. */
export function presentNode(row: StageRow, people: People): TPipelineNode {
  return {
    id: row.id,
    kind: asKind(row.kind),
    name: row.name,
    description: row.description,
    x: row.x,
    y: row.y,
    ...reviewDefaultsOf(row),
    default_assignees: people.assignees.get(row.id) ?? [],
    default_reviewers: people.reviewers.get(row.id) ?? [],
    default_due_days: row.defaultDueDays,
    default_due_date: row.defaultDueDate,
    default_estimate_hours: row.defaultEstimateHours,
    default_duration_days: row.defaultDurationDays,
  };
}

/** A stage on its own (stages/ calls): the node with its pipeline. */
export function presentStage(row: StageRow, people: People): TStage {
  return { ...presentNode(row, people), pipeline: row.pipelineId };
}

/**
 * A pipeline in lists: no nodes, the number of stages (start and end not counted) and of units, and
 * the task counters when they were counted (`counters`: the list's `counters=false` leaves them out).
 */
export function presentSummary(
  row: PipelineRow & { stagesCount: number },
  counters: Counters | null,
): TPipelineSummary {
  return {
    id: row.id,
    project: row.projectId,
    name: row.name,
    description: row.description,
    layout: asLayout(row.layout),
    version: row.version,
    stages_count: row.stagesCount,
    units_count: row.unitsCount,
    ...(counters ? { task_counters: countersOf(counters, row.id) } : {}),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A pipeline with its graph; nodes come sorted (start, stages by id, end), edges by source and target. */
export function presentPipeline(
  row: PipelineRow,
  nodes: StageRow[],
  edges: { sourceId: number; targetId: number }[],
  people: People,
  stageCounters: Counters,
): TPipeline {
  // The pipeline's counters are the sum of its stages': one aggregate query serves both.
  const total = zeroCounters();
  for (const counters of stageCounters.values()) {
    for (const key of Object.keys(total) as (keyof TTaskCountersDto)[]) total[key] += counters[key];
  }
  return {
    ...presentSummary({ ...row, stagesCount: nodes.filter((n) => n.kind === 'stage').length }, null),
    task_counters: total,
    nodes: nodes.map((node) => presentNode(node, people)),
    edges: edges.map((edge) => ({ source: edge.sourceId, target: edge.targetId })),
    stage_counters: Object.fromEntries(nodes.map((node) => [String(node.id), countersOf(stageCounters, node.id)])),
  };
}
