import { z } from 'zod';
import { ReviewModes, TaskStatuses } from '../domain/tasks';
import { Limits } from '../limits';
import { ZDescription, ZId, ZName } from '../validation';
import { ZStageRules } from './teams';
import { ZEstimate } from './time-core';

/**
 * The contract of projects, pipelines and stages (docs/rules.md §Pipelines, §API). The graph rules themselves
 * live in `domain/graph.ts`; these schemas shape the calls.
 */

export const ZReviewMode = z.enum(ReviewModes);
export const ZLayout = z.enum(['horizontal', 'vertical']);
export type TLayout = z.infer<typeof ZLayout>;

/** Review settings a project gives its new stages, and each stage may change (docs/rules.md §Pipelines). */
export const ZReviewDefaults = z.object({
  review_mode: ZReviewMode,
  skip_review_if_no_reviewers: z.boolean(),
  accept_edit_as_done: z.boolean(),
  todo_enabled: z.boolean(),
});
export type TReviewDefaults = z.infer<typeof ZReviewDefaults>;

/** POST projects/, PATCH projects/{id}/. */
export const ZProjectCreate = z.object({
  workspace: z.number().int().positive(),
  name: ZName,
  description: ZDescription.optional(),
  defaults: ZReviewDefaults.partial().optional(),
});
export const ZProjectPatch = ZProjectCreate.omit({ workspace: true }).partial();
export type TProjectCreate = z.infer<typeof ZProjectCreate>;
export type TProjectPatch = z.infer<typeof ZProjectPatch>;
export const ZProject = z.object({
  id: z.number().int(),
  workspace: z.number().int(),
  name: z.string(),
  description: z.string(),
  defaults: ZReviewDefaults,
  pipelines_count: z.number().int(),
  units_count: z.number().int(),
  created_at: z.string(),
});
export type TProject = z.infer<typeof ZProject>;

/**
 * GET projects/{id}/workload/: who carries the project's open work — each person with tasks not
 * done where they are an effective assignee, most loaded first (at most `ProjectWorkloadSize`).
 */
export const ZWorkloadPerson = z.object({
  user_id: z.number().int(),
  name: z.string(),
  open: z.number().int(),
  overdue: z.number().int(),
});
export const ZProjectWorkload = z.object({ people: z.array(ZWorkloadPerson) });
export type TProjectWorkload = z.infer<typeof ZProjectWorkload>;
export const ProjectWorkloadSize = 8;

const ZIsoDate = z.iso.date();
const ZUserIds = z.array(z.number().int().positive()).max(100);

/** A stage's own settings (PATCH stages/{id}/; also sent inside pipeline nodes). */
export const ZStageSettings = z.object({
  name: ZName,
  description: ZDescription,
  todo_enabled: z.boolean(),
  review_mode: ZReviewMode,
  skip_review_if_no_reviewers: z.boolean(),
  accept_edit_as_done: z.boolean(),
  default_assignees: ZUserIds,
  default_reviewers: ZUserIds,
  /** Days after the task becomes ready; or a fixed date; or neither. */
  default_due_days: z.number().int().min(0).max(3650).nullable(),
  default_due_date: ZIsoDate.nullable(),
  /**
   * The estimate (hours) each new task of the stage starts with, or null (docs/time.md). Optional
   * in the type only: the server always sends it.
   */
  default_estimate_hours: ZEstimate.nullable().optional(),
  /**
   * "Starts when its inputs are done, lasts N working days" (docs/schedule.md): the forecast's
   * duration of a task without its own dates or estimate. Optional in the type only.
   */
  default_duration_days: z.number().int().min(0).max(3650).nullable().optional(),
});
export type TStageSettings = z.infer<typeof ZStageSettings>;
/** PATCH stages/{id}/ and the bulk form: any subset. */
export const ZStagePatch = ZStageSettings.partial();
export type TStagePatch = z.infer<typeof ZStagePatch>;
/** POST stages/bulk_update/: the same changes applied to several stages of one pipeline at once. */
export const ZStageBulkPatch = z.object({
  stages: z.array(z.number().int().positive()).min(1).max(Limits.pipelineStages.max),
  changes: ZStagePatch,
});

export const ZNodeKind = z.enum(['root', 'end', 'stage']);
export const ZPipelineNode = ZStageSettings.extend({
  id: z.number().int(),
  kind: ZNodeKind,
  x: z.number(),
  y: z.number(),
});
export type TPipelineNode = z.infer<typeof ZPipelineNode>;
/** GET / PATCH stages/{id}/ and POST stages/bulk_update/: a node with the pipeline it belongs to. */
export const ZStage = ZPipelineNode.extend({ pipeline: z.number().int() }).extend(
  // Teams and review rules (docs/review-rules.md): only on stages/ calls, not inside pipeline
  // nodes; optional in the type only (the server always sends them).
  ZStageRules.partial().shape,
);
/** PATCH stages/{id}/: the settings and the review rules. */
export const ZStageUpdate = ZStagePatch.extend(ZStageRules.partial().shape);
export type TStageUpdate = z.infer<typeof ZStageUpdate>;
export type TStage = z.infer<typeof ZStage>;
export const ZPipelineEdge = z.object({ source: z.number().int(), target: z.number().int() });

export const ZTaskCounters = z.object({
  ...Object.fromEntries(TaskStatuses.map((s) => [s, z.number().int()])),
  overdue: z.number().int(),
}) as z.ZodObject<Record<(typeof TaskStatuses)[number] | 'overdue', z.ZodNumber>>;
export type TTaskCountersDto = z.infer<typeof ZTaskCounters>;

/**
 * GET pipelines/{id}/ (docs/rules.md §API); the list omits nodes and edges, and with `counters=false`
 * the task counters, which are counted over every task of the pipeline (docs/decisions.md, decision 120).
 */
export const ZPipelineSummary = z.object({
  id: z.number().int(),
  project: z.number().int(),
  name: z.string(),
  description: z.string(),
  layout: ZLayout,
  version: z.number().int(),
  stages_count: z.number().int(),
  units_count: z.number().int(),
  task_counters: ZTaskCounters.optional().describe('Absent when the list is asked for with counters=false.'),
  updated_at: z.string(),
});
export type TPipelineSummary = z.infer<typeof ZPipelineSummary>;
/** A summary with its task counters (every answer but a list asked for with `counters=false`). */
export const ZCountedPipelineSummary = ZPipelineSummary.extend({ task_counters: ZTaskCounters });
export type TCountedPipelineSummary = z.infer<typeof ZCountedPipelineSummary>;
/** GET pipelines/: one project's, or every visible project's; `counters=false` leaves the counting out. */
export const ZPipelineListQuery = z.object({
  project: ZId.optional(),
  counters: z.enum(['true', 'false']).optional(),
});
export const ZPipeline = ZCountedPipelineSummary.extend({
  nodes: z.array(ZPipelineNode),
  edges: z.array(ZPipelineEdge),
  /** Per stage: counts of its tasks by status, for the diagram's counters. */
  stage_counters: z.record(z.string(), ZTaskCounters),
});
export type TPipeline = z.infer<typeof ZPipeline>;

/** POST pipelines/ (a new pipeline has its start and end), PATCH pipelines/{id}/. */
export const ZPipelineCreate = z.object({
  project: z.number().int().positive(),
  name: ZName,
  description: ZDescription.optional(),
  layout: ZLayout.optional(),
});
export const ZPipelinePatch = ZPipelineCreate.omit({ project: true }).partial();
export type TPipelineCreate = z.infer<typeof ZPipelineCreate>;
export type TPipelinePatch = z.infer<typeof ZPipelinePatch>;

/**
 * PUT pipelines/{id}/graph/: the whole graph with the version it was loaded at. Existing nodes
 * carry `id`; new ones a client key `tmp_id`; edges name either. 409 on a stale version, 400
 * `pipeline_cycle` on a cycle.
 */
export const ZNodeRef = z.union([z.number().int(), z.string().min(1).max(64)]);
export const ZGraphNodeInput = ZStageSettings.partial()
  .extend({
    id: z.number().int().optional(),
    tmp_id: z.string().min(1).max(64).optional(),
    kind: ZNodeKind,
    name: ZName,
    x: z.number().finite(),
    y: z.number().finite(),
  })
  .refine((n) => (n.id === undefined) !== (n.tmp_id === undefined), { message: 'Invalid value.' });
export const ZGraphSave = z.object({
  version: z.number().int().min(0),
  layout: ZLayout.optional(),
  /**
   * Only a guard against absurd bodies: the stage limit itself is a graph rule (`too_many_stages`),
   * answered with its own message by `validateGraph`.
   */
  nodes: z
    .array(ZGraphNodeInput)
    .min(2)
    .max(Limits.pipelineStages.max * 2),
  edges: z.array(z.object({ source: ZNodeRef, target: ZNodeRef })).max(20_000),
});
export type TGraphSave = z.infer<typeof ZGraphSave>;
/** The answer of a graph save: the pipeline as saved, and the ids given to new nodes. */
export const ZGraphSaveResult = ZPipeline.extend({ id_map: z.record(z.string(), z.number().int()) });
export type TGraphSaveResult = z.infer<typeof ZGraphSaveResult>;

/** The product's review defaults for a new project (docs/rules.md §Tasks): both the server and the form. */
export const ProductReviewDefaults: TReviewDefaults = {
  review_mode: 'each_immediate',
  skip_review_if_no_reviewers: false,
  accept_edit_as_done: false,
  todo_enabled: true,
};
