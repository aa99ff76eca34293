import { z } from 'zod';
import { ZEstimate } from './time-core';
import { ZReportDay } from './reports';
import { HistoryActions, IterationOutcomes, ReviewModes, TaskStatuses } from '../domain/tasks';
import { ZTaskAbilities } from './abilities';
import { ZRole } from './workspaces';
import { Limits } from '../limits';
import { stripInvisibles, ZDescription, ZId, zIdList, ZName, ZOffset, ZPageLimit } from '../validation';
import { ZTaskTeams, ZTaskTeamsPatch, ZTeamRef } from './teams';
import { FieldLimits, ZFieldSort, ZFieldValues } from './fields-core';

/** A `fields` object in a request: checked against the project's definitions by the server. */
const ZFieldsInput = ZFieldValues.refine((fields) => Object.keys(fields).length <= FieldLimits.perProject.max, {
  message: 'Ensure this list has no more than {{max}} items.',
});

/** `field.<key>=…` filters beside a query's own parameters (docs/custom-fields.md). */
const fieldFilters = z.string().max(500);

/**
 * The contract of units and their tasks (docs/rules.md §Tasks, §API, §Web, §Pipelines). The engine's rules
 * live in `domain/tasks.ts`; these schemas shape the calls.
 */

export const ZTaskStatus = z.enum(TaskStatuses);

export const ZUserRef = z.object({ id: z.number().int(), name: z.string(), username: z.string() });
export type TUserRef = z.infer<typeof ZUserRef>;

/** A unit's task in lists and the matrix: enough to draw a status cell. */
export const ZTaskCell = z.object({
  id: z.number().int(),
  stage: z.number().int(),
  status: ZTaskStatus,
  ready: z.boolean(),
  overdue: z.boolean(),
  due_date: z.string().nullable(),
  assignees: z.array(z.number().int()),
  /** Files on the task and its comments (docs/files.md): the matrix cell's paperclip. */
  files: z.number().int(),
});
export type TTaskCell = z.infer<typeof ZTaskCell>;

/** POST units/ → 201 `ZUnit` (its tasks created in the same transaction). */
export const ZUnitCreate = z.object({
  project: z.number().int().positive(),
  pipeline: z.number().int().positive(),
  name: ZName,
  description: ZDescription.optional(),
  /** Custom field values by key; fields left out take their default (a required one without a default: 400). */
  fields: ZFieldsInput.optional(),
});
/** `fields`: only the keys sent change; null or "" clears a value. */
export const ZUnitPatch = z.object({ name: ZName, description: ZDescription, fields: ZFieldsInput }).partial();
export const ZUnit = z.object({
  id: z.number().int(),
  project: z.number().int(),
  pipeline: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** Custom field values by key (docs/custom-fields.md); {} when an older answer has none. */
  fields: ZFieldValues.default({}),
  created_at: z.string(),
  tasks: z.array(ZTaskCell),
});
export type TUnit = z.infer<typeof ZUnit>;

/**
 * GET units/?project=&pipeline=&search=: a page of units without their tasks (the matrix has those).
 * `after` (the `next_cursor` of the page before) pages by key, costing the same on the last page as
 * on the first; `offset` jumps anywhere (the paged matrix's scroll needs that) but costs the rows it
 * skips. The two do not go together.
 */
export const ZUnitListQuery = z.object({
  project: ZId.optional(),
  pipeline: ZId.optional(),
  search: z.string().trim().max(Limits.name.max).optional(),
  after: z.string().max(1000).optional(),
  offset: ZOffset,
  limit: ZPageLimit,
});
/** The route's query: `ZUnitListQuery` and `field.<key>=…` filters (docs/custom-fields.md). */
export const ZUnitListQueryWithFields = ZUnitListQuery.catchall(fieldFilters).describe(
  'Also `field.<key>=…` filters on custom fields (with `project` or `pipeline`; docs/custom-fields.md).',
);
export const ZUnitSummary = ZUnit.omit({ tasks: true });
export type TUnitSummary = z.infer<typeof ZUnitSummary>;
export const ZUnitList = z.object({
  count: z.number().int(),
  next: z.number().int().nullable(),
  /** The `after` of the next page, or null on the last one. */
  next_cursor: z.string().nullable(),
  results: z.array(ZUnitSummary),
});

/**
 * The number in a batch template: `{count}`, or `{count:03}` for the number zero-padded to 3 digits
 * (`sh{count:03}` → sh010, sh020; 1 to 9 digits; a longer number keeps all its digits).
 */
const CountPlaceholder = /\{count(?::0([1-9]))?\}/g;

/**
 * The batch template of docs/rules.md §Pipelines: `{count}` (or zero-padded `{count:03}`) required,
 * `{project}` optional; count > 0, start ≥ 0, step ≥ 1. The same schema checks the form and the request.
 */
export const ZBatchUnits = z.object({
  project: z.number().int().positive(),
  pipeline: z.number().int().positive(),
  template: z
    .string()
    .overwrite(stripInvisibles)
    .trim()
    .min(1)
    .max(Limits.name.max)
    .refine((value) => new RegExp(CountPlaceholder.source).test(value), {
      message: 'The template must contain {count}',
    }),
  count: z.number().int().min(Limits.batchUnits.min).max(Limits.batchUnits.max),
  start: z.number().int().min(0).max(1_000_000_000),
  step: z.number().int().min(1).max(1_000_000),
});
export type TBatchUnits = z.infer<typeof ZBatchUnits>;
export const ZBatchResult = z.object({
  created: z.number().int(),
  units: z.array(z.object({ id: z.number().int(), name: z.string() })),
});

/** The names a batch creates, for the form's live preview and the server alike. */
export function batchUnitNames(
  input: Pick<TBatchUnits, 'template' | 'count' | 'start' | 'step'>,
  projectName: string,
  limit = Infinity,
): string[] {
  const names: string[] = [];
  for (let i = 0; i < Math.min(input.count, limit); i++) {
    const n = input.start + i * input.step;
    names.push(
      input.template
        .replace(CountPlaceholder, (_placeholder, width?: string) => String(n).padStart(Number(width ?? 0), '0'))
        .replaceAll('{project}', projectName),
    );
  }
  return names;
}

/**
 * GET units/matrix/?pipeline=…: one page of the unit × stage matrix. As on `GET units/`, `after` (the
 * `next_cursor` of the page before, in the same sort and filters) pages by key at the same cost
 * anywhere in the pipeline, and `offset` jumps anywhere (the screen's scroll) but costs the rows it
 * skips; not both.
 */
export const ZMatrixQuery = z.object({
  pipeline: ZId,
  after: z.string().max(1000).optional(),
  offset: ZOffset,
  limit: ZPageLimit,
  /** Also `field.<key>` or `-field.<key>` (docs/custom-fields.md). */
  sort: z.union([z.enum(['name', '-name', 'created', '-created']), ZFieldSort]).default('name'),
  /** Units having at least one task in this status. */
  status: ZTaskStatus.optional(),
  /** Units having a task assigned to this user id ('me' for the caller). */
  assignee: z.union([z.literal('me'), ZId]).optional(),
  /** Units having a task assigned to this team (docs/review-rules.md). */
  assignee_team: ZId.optional(),
  overdue: z.enum(['true', 'false']).optional(),
  search: z.string().trim().max(Limits.name.max).optional(),
});
/** The route's query: `ZMatrixQuery` and `field.<key>=…` filters. */
export const ZMatrixQueryWithFields = ZMatrixQuery.catchall(fieldFilters).describe(
  'Also `field.<key>=…` filters on custom fields: numbers and dates `v`, `a..b`, `a..`, `..b`; selects any of `id,id`; ' +
    'a person `me` or ids; a checkbox `true`/`false`; text a part of it (docs/custom-fields.md).',
);
export const ZMatrixPage = z.object({
  count: z.number().int(),
  /** The `after` of the next page, or null on the last one. */
  next_cursor: z.string().nullable(),
  stages: z.array(z.object({ id: z.number().int(), name: z.string() })),
  rows: z.array(
    z.object({
      unit: z.object({ id: z.number().int(), name: z.string(), fields: ZFieldValues.default({}) }),
      tasks: z.array(ZTaskCell),
    }),
  ),
});
export type TMatrixPage = z.infer<typeof ZMatrixPage>;

/** GET units/matrix/whole/?pipeline=…: the whole matrix at once. */
export const ZWholeMatrixQuery = z.object({
  pipeline: ZId,
  /**
   * Only these units (a comma-separated list of ids, at most 500): what a live task event refetches
   * to patch the client's copy (docs/live-updates.md). Units not in the pipeline are left out.
   */
  units: zIdList(500).optional(),
});

export const ZHistoryEntry = z.object({
  id: z.number().int(),
  action: z.enum(HistoryActions),
  from: ZTaskStatus.nullable(),
  to: ZTaskStatus.nullable(),
  iteration: z.number().int().nullable(),
  actor: ZUserRef.nullable(),
  comment: z.string().nullable(),
  /** Done set by hand, skipping the review (`skipsReview`, docs/review-rules.md). */
  skipped_review: z.boolean(),
  /** `log_time`: the day and the person's hours on it after the change (0: deleted), docs/time.md. */
  time: z.object({ date: z.string(), hours: z.number() }).nullable().optional(),
  created_at: z.string(),
});

/** GET tasks/{id}/ (docs/rules.md §API). */
export const ZTask = z.object({
  id: z.number().int(),
  unit: z.object({ id: z.number().int(), name: z.string() }),
  stage: z.object({ id: z.number().int(), name: z.string(), review_mode: z.enum(ReviewModes) }),
  pipeline: z.object({ id: z.number().int(), name: z.string() }),
  project: z.object({ id: z.number().int(), name: z.string(), workspace: z.number().int() }),
  status: ZTaskStatus,
  ready: z.boolean(),
  overdue: z.boolean(),
  assignees: z.array(ZUserRef),
  reviewers: z.array(ZUserRef),
  due_date: z.string().nullable(),
  use_stage_defaults: z.boolean(),
  /**
   * Hours the task is expected to take (quarter hours), or null; the stage's default when it was
   * made (docs/time.md). Optional in the type only: the server always sends it.
   */
  estimate_hours: z.number().nullable().optional(),
  /** Hours logged on the task by everyone. Optional in the type only. */
  spent_hours: z.number().optional(),
  /** The planned start, YYYY-MM-DD, or null (docs/schedule.md). Optional in the type only. */
  start_date: z.string().nullable().optional(),
  iteration: z
    .object({
      number: z.number().int(),
      accepted_by: z.array(z.number().int()),
      rejected_by: z.array(z.number().int()),
      /** The latest round stays here after it closes, with how it closed. */
      closed: z.boolean(),
      outcome: z.enum(IterationOutcomes).nullable(),
      /** The predecessor stages this round's rejections sent back for revision (outcome `returned`). */
      return_to: z.array(z.number().int()).optional(),
    })
    .nullable(),
  /** The tasks of the predecessor stages (same unit): the reject dialog's choices. */
  predecessors: z.array(
    z.object({ task: z.number().int(), stage: z.number().int(), stage_name: z.string(), status: ZTaskStatus }),
  ),
  history: z.array(ZHistoryEntry),
  /** The caller's role in the task's workspace (shown, never compared: the client reads `abilities`). */
  role: ZRole,
  /** What the caller may do with the task now (`taskAbilities`). */
  abilities: ZTaskAbilities,
  // Teams and review rules (docs/review-rules.md). Optional in the type only, so that records built
  // without them (older fixtures) still type-check; the server always sends them.
  ...ZTaskTeams.partial().shape,
});
export type TTask = z.infer<typeof ZTask>;

export const ZReview = z.object({ comment: z.string().max(Limits.comment.max).optional() });
export const ZReject = ZReview.extend({ return_to: z.array(z.number().int().positive()).max(100).optional() });
export const ZTaskPatch = z
  .object({
    status: ZTaskStatus,
    assignees: z.array(z.number().int().positive()).max(100),
    reviewers: z.array(z.number().int().positive()).max(100),
    due_date: z.iso.datetime({ offset: true }).nullable(),
    use_stage_defaults: z.boolean(),
    /** Hours in quarter-hour steps, or null for none (docs/time.md). */
    estimate_hours: ZEstimate.nullable(),
    /** The planned start, YYYY-MM-DD (no later than the due date), or null (docs/schedule.md). */
    start_date: ZReportDay.nullable(),
  })
  .extend(ZTaskTeamsPatch.shape)
  .partial();

/**
 * GET tasks/?assignee=me&reviewer=me&pipeline=&unit=&status=&overdue=&ready=&awaiting=&workable=
 * (paginated).
 */
export const ZTaskListQuery = z.object({
  assignee: z.union([z.literal('me'), ZId]).optional(),
  reviewer: z.union([z.literal('me'), ZId]).optional(),
  workspace: ZId.optional(),
  pipeline: ZId.optional(),
  unit: ZId.optional(),
  status: ZTaskStatus.optional(),
  overdue: z.enum(['true', 'false']).optional(),
  ready: z.enum(['true', 'false']).optional(),
  /**
   * Only tasks awaiting the reviewer's reaction: in review, with an open round that the reviewer
   * (the `reviewer` filter, else the caller) has not accepted or rejected yet.
   */
  awaiting: z.enum(['true']).optional(),
  /** Only tasks the assignee can act on: To do, Work in progress or Edit (not in review, not done). */
  workable: z.enum(['true']).optional(),
  /** The caller's team queues: tasks assigned to a team of the caller, not yet done (docs/review-rules.md). */
  queue: z.enum(['team']).optional(),
  /** The `next_cursor` of the page before: pages by key, as `GET units/` does. Not with `offset`. */
  after: z.string().max(1000).optional(),
  offset: ZOffset,
  limit: ZPageLimit,
});
export const ZTaskListItem = z.object({
  id: z.number().int(),
  workspace: z.number().int(),
  unit: z.object({ id: z.number().int(), name: z.string() }),
  stage: z.object({ id: z.number().int(), name: z.string() }),
  pipeline: z.object({ id: z.number().int(), name: z.string() }),
  project: z.object({ id: z.number().int(), name: z.string() }),
  status: ZTaskStatus,
  ready: z.boolean(),
  overdue: z.boolean(),
  due_date: z.string().nullable(),
  /** The teams the task is assigned to (team queues). */
  assignee_teams: z.array(ZTeamRef).optional(),
});
export type TTaskListItem = z.infer<typeof ZTaskListItem>;
export const ZTaskList = z.object({
  count: z.number().int(),
  next: z.number().int().nullable(),
  /** The `after` of the next page, or null on the last one. */
  next_cursor: z.string().nullable(),
  results: z.array(ZTaskListItem),
});
export type TTaskList = z.infer<typeof ZTaskList>;
export type TUnitList = z.infer<typeof ZUnitList>;
