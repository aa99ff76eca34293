import type { TStagePatch } from '@stageline/shared';
import { FieldError } from '../../http/errors';
import { reviewColumns } from '../projects';

export const dueBoth = 'Choose days after ready or a date, not both.';

/**
 * A stage's due default is days after ready, or a date, or neither (docs/rules.md §Tasks): a request that
 * sets both at once is refused, naming `field` (such as `nodes.3.default_due_date`).
 */
export function assertOneDue(patch: TStagePatch, field = 'default_due_date'): void {
  if (patch.default_due_days != null && patch.default_due_date != null) throw new FieldError({ [field]: [dueBoth] });
}

/**
 * The columns a settings patch changes: only what it gives, except that setting one kind of due
 * default clears the other.
 */
export function settingsColumns(patch: TStagePatch) {
  const columns = {
    name: patch.name,
    description: patch.description,
    defaultDueDays: patch.default_due_days,
    defaultDueDate: patch.default_due_date,
    defaultEstimateHours: patch.default_estimate_hours,
    defaultDurationDays: patch.default_duration_days,
  };
  if (patch.default_due_days != null) columns.defaultDueDate = null;
  if (patch.default_due_date != null) columns.defaultDueDays = null;
  return {
    ...(Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined)) as Partial<typeof columns>),
    ...reviewColumns(patch),
  };
}

/** Does the patch change anything but positions? Start and end have no settings. */
export function hasSettings(patch: TStagePatch): boolean {
  return Object.values(patch).some((v) => v !== undefined);
}
