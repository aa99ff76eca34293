import {
  ProductReviewDefaults,
  ReviewModes,
  type TProject,
  type TReviewDefaults,
  type TReviewMode,
} from '@stageline/shared';
import type { ProjectRow } from './policy';

/** The product's defaults for a project's review settings (docs/rules.md §Tasks), kept in shared. */
export const productReviewDefaults: TReviewDefaults = ProductReviewDefaults;

/** A stored review mode; the column's check keeps it one of `ReviewModes`. */
export const asReviewMode = (value: string): TReviewMode => ReviewModes.find((m) => m === value) ?? 'each_immediate';

/** The review settings of a project or stage row, in the API's words. */
export function reviewDefaultsOf(row: {
  reviewMode: string;
  skipReviewIfNoReviewers: boolean;
  acceptEditAsDone: boolean;
  todoEnabled: boolean;
}): TReviewDefaults {
  return {
    review_mode: asReviewMode(row.reviewMode),
    skip_review_if_no_reviewers: row.skipReviewIfNoReviewers,
    accept_edit_as_done: row.acceptEditAsDone,
    todo_enabled: row.todoEnabled,
  };
}

/** Review settings from the API's words to columns, leaving out what was not given. */
export function reviewColumns(defaults: Partial<TReviewDefaults>) {
  const columns = {
    reviewMode: defaults.review_mode,
    skipReviewIfNoReviewers: defaults.skip_review_if_no_reviewers,
    acceptEditAsDone: defaults.accept_edit_as_done,
    todoEnabled: defaults.todo_enabled,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined)) as Partial<typeof columns>;
}

/** A project as its workspace's members see it. Units arrive in a later issue: 0 until then. */
export function presentProject(row: ProjectRow & { pipelinesCount: number; unitsCount: number }): TProject {
  return {
    id: row.id,
    workspace: row.workspaceId,
    name: row.name,
    description: row.description,
    defaults: reviewDefaultsOf(row),
    pipelines_count: row.pipelinesCount,
    units_count: row.unitsCount,
    created_at: row.createdAt.toISOString(),
  };
}
