import { z } from 'zod';

/**
 * The history of a unit or a task (docs/history-and-audit.md): every change as who, when, which
 * field, old → new, written in the transaction that made it.
 */

export const HistoryFields = [
  'status',
  'assignees',
  'reviewers',
  'due_date',
  'estimate',
  'name',
  'description',
  'file_added',
  'file_removed',
  'time_logged',
  'comment_edited',
  'comment_deleted',
] as const;
export type THistoryField = (typeof HistoryFields)[number];

/**
 * A custom field's change is written with the field `field:<key>` (item 1 of issue 35 adds the
 * fields; `recordHistory` already takes such names).
 */
export const CustomFieldHistoryPrefix = 'field:';

/** The filter of the timeline: everything, only status changes, only changes of values. */
export const HistoryFilters = ['all', 'status', 'fields'] as const;
export type THistoryFilter = (typeof HistoryFilters)[number];

/** Fields the "only fields" filter keeps: values of the record (custom fields too), not status, files or talk. */
export const ValueHistoryFields: readonly THistoryField[] = [
  'assignees',
  'reviewers',
  'due_date',
  'estimate',
  'name',
  'description',
];

export const HistoryLimits = { page: { default: 50, max: 200 } } as const;

export const ZRecordChange = z.object({
  id: z.number().int(),
  unit: z.number().int(),
  /** null for a change of the unit itself. */
  task: z.number().int().nullable(),
  actor: z.object({ id: z.number().int(), username: z.string(), name: z.string() }).nullable(),
  /** One of `HistoryFields`, or `field:<key>` for a custom field. */
  field: z.string(),
  old: z.unknown(),
  new: z.unknown(),
  created_at: z.string(),
});
export type TRecordChange = z.infer<typeof ZRecordChange>;

export const ZRecordChangeQuery = z.object({
  only: z.enum(HistoryFilters).default('all'),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(HistoryLimits.page.max).default(HistoryLimits.page.default),
});
export type TRecordChangeQuery = z.infer<typeof ZRecordChangeQuery>;

export const ZRecordChangePage = z.object({ results: z.array(ZRecordChange), next: z.number().int().nullable() });
export type TRecordChangePage = z.infer<typeof ZRecordChangePage>;
