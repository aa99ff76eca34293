import { z } from 'zod';
import type { TMemberAbilities, TRecordAbilities, TTaskAbilities, TWorkspaceAbilities } from '../domain/abilities';
import { TaskStatuses } from '../domain/tasks';

/** The `abilities` objects records carry (`domain/abilities.ts` computes them). */

export const ZTaskAbilities = z.object({
  start: z.boolean(),
  submit: z.boolean(),
  review: z.boolean(),
  self_review: z.boolean(),
  reacted: z.boolean(),
  accept_outcome: z.enum(['done', 'edit', 'wait']).nullable(),
  statuses: z.array(z.enum(TaskStatuses)),
  update: z.boolean(),
  self_reviewer: z.boolean(),
  take: z.boolean(),
  remind: z.boolean(),
  log_time: z.boolean().optional(),
}) satisfies z.ZodType<TTaskAbilities>;

export const ZRecordAbilities = z.object({
  create: z.boolean(),
  update: z.boolean(),
  delete: z.boolean(),
}) satisfies z.ZodType<TRecordAbilities>;

export const ZWorkspaceAbilities = z.object({
  update: z.boolean(),
  invite: z.boolean(),
  manage_link: z.boolean(),
  change_roles: z.boolean(),
  remove_users: z.boolean(),
  delegate: z.boolean(),
  delete: z.boolean(),
  leave: z.boolean(),
  manage_webhooks: z.boolean(),
  share_views: z.boolean(),
  view_teams: z.boolean(),
  manage_teams: z.boolean(),
  comment: z.boolean(),
  moderate_comments: z.boolean(),
  moderate_time: z.boolean().optional(),
  manage_fields: z.boolean().optional(),
  view_audit: z.boolean().optional(),
  attach: z.boolean(),
  projects: ZRecordAbilities,
  pipelines: ZRecordAbilities,
  units: ZRecordAbilities,
}) satisfies z.ZodType<TWorkspaceAbilities>;

export const ZMemberAbilities = z.object({
  change_role: z.boolean(),
  remove: z.boolean(),
}) satisfies z.ZodType<TMemberAbilities>;
