import { z } from 'zod';
import { AssignableRoles, Roles } from '../domain/permissions';
import { Limits } from '../limits';
import { ZMemberAbilities, ZWorkspaceAbilities } from './abilities';
import { ZDescription, ZName } from '../validation';
import { EstimateMessages, isQuarterHours, TimeLimits } from './time-core';
import { AuditLimits } from './audit-core';

/**
 * The contract of workspaces, their team and invites (docs/rules.md §Roles, §API). Roles and who may do what
 * come from `domain/permissions.ts`; these schemas only shape the calls.
 */

export const ZRole = z.enum(Roles);
export const ZAssignableRole = z.enum(AssignableRoles);

/** POST workspaces/ and PATCH workspaces/{id}/. */
export const ZWorkspaceCreate = z.object({ name: ZName, description: ZDescription.optional() });
export const ZWorkspacePatch = ZWorkspaceCreate.partial().extend({
  /** The working day, to show estimates in days (docs/time.md); Admins. */
  hours_per_day: z
    .number()
    .min(TimeLimits.hoursPerDay.min)
    .max(TimeLimits.hoursPerDay.max)
    .refine(isQuarterHours, {
      message: EstimateMessages.quarterHours,
    })
    .optional(),
  /** Days the audit log keeps its entries (docs/history-and-audit.md); Admins. */
  audit_retention_days: z
    .number()
    .int()
    .min(AuditLimits.retentionDays.min)
    .max(AuditLimits.retentionDays.max)
    .optional(),
  /** Members may share review sessions with clients (docs/review-sessions.md); Admins. */
  members_share_reviews: z.boolean().optional(),
});
export type TWorkspaceCreate = z.infer<typeof ZWorkspaceCreate>;
export type TWorkspacePatch = z.infer<typeof ZWorkspacePatch>;

/** A workspace as its member sees it: `role` is the caller's, `abilities` what that role may do in it. */
export const ZWorkspace = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  owner: z.object({ id: z.number().int(), name: z.string(), username: z.string() }),
  role: ZRole,
  abilities: ZWorkspaceAbilities,
  members_count: z.number().int(),
  /** Hours in a working day (default 8). Optional in the type only: the server always sends it. */
  hours_per_day: z.number().optional(),
  /** Days the audit log keeps its entries (365 by default). Optional in the type only. */
  audit_retention_days: z.number().int().optional(),
  /** Members may share review sessions with clients. Optional in the type only: the server always sends it. */
  members_share_reviews: z.boolean().optional(),
  created_at: z.string(),
});
export type TWorkspace = z.infer<typeof ZWorkspace>;

/** GET workspaces/{id}/users/: members and pending direct invites. */
export const ZWorkspaceUser = z.object({
  /** null for a pending invite to an e-mail that has no account yet. */
  user_id: z.number().int().nullable(),
  /** the invite's id while pending, else null. */
  invite_id: z.number().int().nullable(),
  name: z.string(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  role: ZRole,
  status: z.enum(['accepted', 'pending']),
  inviter_name: z.string().nullable(),
  invited_by: z.enum(['link', 'user']).nullable(),
  /** What the caller may do to this member (`memberAbilities`); pending invites: none. */
  abilities: ZMemberAbilities,
});
export type TWorkspaceUser = z.infer<typeof ZWorkspaceUser>;

/** POST workspaces/{id}/invite/: usernames or e-mails, and the role offered ('Invite as'). */
export const ZInvite = z.object({
  // An entry longer than any username or e-mail is refused on its own in the result, not for the whole
  // request, so the valid ones are still invited (decision 196); the bound only keeps requests small.
  users: z.array(z.string().trim().min(1).max(Limits.inviteEntry.max)).min(1).max(100),
  role: ZAssignableRole,
});
export const ZInviteResult = z.object({
  invited: z.number().int(),
  failed: z.number().int(),
  errors: z.array(z.object({ user: z.string(), detail: z.string() })),
});

/** POST workspaces/{id}/link/ → the link's token (`/i/{token}`); GET answers the active link. */
export const ZLinkCreate = z.object({ role: ZAssignableRole });
export const ZInviteLink = z.object({ token: z.string(), role: ZAssignableRole });

/** POST workspaces/{id}/set_roles/ and remove_users/: bulk actions with partial results. */
export const ZSetRoles = z.object({
  users: z.array(z.number().int().positive()).min(1).max(500),
  role: ZAssignableRole,
});
export const ZRemoveUsers = z.object({ users: z.array(z.number().int().positive()).min(1).max(500) });
export const ZBulkResult = z.object({
  succeeded: z.number().int(),
  failed: z.number().int(),
  errors: z.array(z.object({ user: z.number().int(), detail: z.string() })),
});
export type TBulkResult = z.infer<typeof ZBulkResult>;

/** POST workspaces/{id}/delegate/: ownership goes to a member who accepted. */
export const ZDelegate = z.object({ user: z.number().int().positive() });

/** GET invites/: the caller's pending direct invites; GET invites/{token}/: a link's preview. */
export const ZPendingInvite = z.object({
  id: z.number().int(),
  workspace: z.object({ id: z.number().int(), name: z.string() }),
  role: ZAssignableRole,
  inviter_name: z.string().nullable(),
  created_at: z.string(),
});
export type TPendingInvite = z.infer<typeof ZPendingInvite>;
export const ZInvitePreview = z.object({
  workspace: z.object({ id: z.number().int(), name: z.string() }),
  role: ZAssignableRole,
  inviter_name: z.string().nullable(),
  /** true when the caller already belongs to the workspace. */
  member: z.boolean(),
});
