import type { TPipelineNode, TStageSettings } from '@stageline/shared';

export const StageFields = [
  'name',
  'description',
  'default_assignees',
  'default_reviewers',
  'default_due_days',
  'default_due_date',
  'default_estimate_hours',
  'todo_enabled',
  'review_mode',
  'skip_review_if_no_reviewers',
  'accept_edit_as_done',
] as const satisfies readonly (keyof TStageSettings)[];
export type TStageField = (typeof StageFields)[number];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The settings the stages have in common, and the fields where they differ ("mixed"): the bulk
 * form shows a mixed field empty and leaves it alone unless the user edits it.
 */
export function commonSettings(stages: readonly TPipelineNode[]): { values: TStageSettings; mixed: Set<TStageField> } {
  const first = stages[0]!;
  const values = Object.fromEntries(StageFields.map((f) => [f, first[f]])) as TStageSettings;
  const mixed = new Set<TStageField>();
  for (const field of StageFields) {
    if (stages.some((stage) => !same(stage[field], first[field]))) mixed.add(field);
  }
  return { values, mixed };
}

/**
 * Only what the user changed. A field counts when touched and, if the stages agreed on it, when it
 * now differs; a mixed field that was touched counts as it is (setting one value for all). So a bulk
 * update never overwrites the stages' differing values with a placeholder.
 */
export function changedFields(
  initial: TStageSettings,
  values: TStageSettings,
  touched: ReadonlySet<TStageField>,
  mixed: ReadonlySet<TStageField> = new Set(),
): Partial<TStageSettings> {
  const changes: Partial<TStageSettings> = {};
  for (const field of StageFields) {
    if (!touched.has(field)) continue;
    if (!mixed.has(field) && same(initial[field], values[field])) continue;
    (changes as Record<string, unknown>)[field] = values[field];
  }
  return changes;
}

/** Empty values for the fields the stages disagree on: the form shows them as "mixed". */
export function blankMixed(values: TStageSettings, mixed: ReadonlySet<TStageField>): TStageSettings {
  const blank: Record<TStageField, unknown> = {
    name: '',
    description: '',
    default_assignees: [],
    default_reviewers: [],
    default_due_days: null,
    default_estimate_hours: null,
    default_due_date: null,
    todo_enabled: values.todo_enabled,
    review_mode: values.review_mode,
    skip_review_if_no_reviewers: values.skip_review_if_no_reviewers,
    accept_edit_as_done: values.accept_edit_as_done,
  };
  const result = { ...values } as Record<TStageField, unknown>;
  for (const field of mixed) result[field] = blank[field];
  return result as TStageSettings;
}
