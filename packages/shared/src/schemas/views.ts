import { z } from 'zod';
import { ZId } from '../validation';

/**
 * Saved views (issue 20): the filters and sort of the matrix or a task list, saved by name, for
 * oneself or shared with the workspace. Filters are kept as the screen's URL query (name → value),
 * so opening a view and following a link to it are the same thing. Custom field filters keep their
 * `field.<key>` names (docs/custom-fields.md).
 */

export const ViewKinds = ['matrix', 'tasks'] as const;
export const ZViewKind = z.enum(ViewKinds);

export const ZViewFilters = z
  .record(z.string().regex(/^(?:[a-z_]{1,40}|field\.[a-z][a-z0-9_]{0,29})$/), z.string().max(500))
  .refine((filters) => Object.keys(filters).length <= 20, 'Ensure this list has no more than {{max}} items.');

const viewFields = {
  name: z.string().trim().min(1).max(100),
  filters: ZViewFilters,
  sort: z.string().trim().max(40).nullable(),
  shared: z.boolean(),
};

export const ZViewCreate = z.object({
  project: ZId,
  kind: ZViewKind.default('matrix'),
  name: viewFields.name,
  filters: viewFields.filters,
  sort: viewFields.sort.optional(),
  shared: viewFields.shared.default(false),
});
export type TViewCreate = z.input<typeof ZViewCreate>;

/** PATCH views/{id}/: only the fields sent change (no defaults here, or a rename would unshare). */
export const ZViewPatch = z.object(viewFields).partial();
export type TViewPatch = z.infer<typeof ZViewPatch>;

export const ZView = z.object({
  id: z.number().int(),
  project: z.number().int(),
  kind: ZViewKind,
  name: z.string(),
  filters: z.record(z.string(), z.string()),
  sort: z.string().nullable(),
  shared: z.boolean(),
  author: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** Whether the caller may rename, change or delete it (its author; for shared views also Admins). */
  can_edit: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TView = z.infer<typeof ZView>;

export const ZViewListQuery = z.object({ project: ZId, kind: ZViewKind.optional() });
