import {
  TaskStatuses,
  type TLayout,
  type TPipeline,
  type TPipelineNode,
  type TPipelineSummary,
  type TStage,
  type TTaskCountersDto,
} from '@stageline/shared';
import { reviewDefaultsOf } from '../projects';
import type { PipelineRow, StageRow } from './policy';

/** Task counters before any task exists (units and tasks arrive in a later issue). */
export function zeroCounters(): TTaskCountersDto {
  return { ...Object.fromEntries(TaskStatuses.map((s) => [s, 0])), overdue: 0 } as TTaskCountersDto;
}

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
  };
}

/** A stage on its own (stages/ calls): the node with its pipeline. */
export function presentStage(row: StageRow, people: People): TStage {
  return { ...presentNode(row, people), pipeline: row.pipelineId };
}

/** A pipeline in lists: no nodes, the number of stages (start and end not counted). */
export function presentSummary(row: PipelineRow & { stagesCount: number }): TPipelineSummary {
  return {
    id: row.id,
    project: row.projectId,
    name: row.name,
    description: row.description,
    layout: asLayout(row.layout),
    version: row.version,
    stages_count: row.stagesCount,
    task_counters: zeroCounters(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A pipeline with its graph; nodes come sorted (start, stages by id, end), edges by source and target. */
export function presentPipeline(
  row: PipelineRow,
  nodes: StageRow[],
  edges: { sourceId: number; targetId: number }[],
  people: People,
): TPipeline {
  return {
    ...presentSummary({ ...row, stagesCount: nodes.filter((n) => n.kind === 'stage').length }),
    nodes: nodes.map((node) => presentNode(node, people)),
    edges: edges.map((edge) => ({ source: edge.sourceId, target: edge.targetId })),
    stage_counters: Object.fromEntries(nodes.map((node) => [String(node.id), zeroCounters()])),
  };
}
