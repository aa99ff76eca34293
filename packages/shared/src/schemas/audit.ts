import { z } from 'zod';
import { AuditLimits } from './audit-core';

export * from './audit-core';

/**
 * The workspace audit log (docs/history-and-audit.md): what Admins and the Owner read to answer
 * "who signed in, who made that token, who exported the data?".
 */

/** Every kind of entry; the web groups them by their prefix. */
export const AuditActions = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.two_factor_on',
  'auth.two_factor_off',
  'auth.password_changed',
  'auth.password_reset',
  'auth.email_changed',
  'auth.session_revoked',
  'auth.sessions_revoked',
  'api_token.created',
  'api_token.revoked',
  'member.invited',
  'member.invite_cancelled',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.left',
  'workspace.ownership_moved',
  'workspace.settings_changed',
  'webhook.created',
  'webhook.changed',
  'webhook.deleted',
  'export.csv',
  'export.file',
  'project.deleted',
  'pipeline.deleted',
  'unit.deleted',
] as const;
export type TAuditAction = (typeof AuditActions)[number];

/** The kinds of records an entry may be about. */
export const AuditTargetKinds = [
  'user',
  'workspace',
  'project',
  'pipeline',
  'unit',
  'task',
  'webhook',
  'api_token',
  'session',
  'attachment',
  'invite',
] as const;
export type TAuditTargetKind = (typeof AuditTargetKinds)[number];

export const ZAuditEntry = z.object({
  id: z.number().int(),
  action: z.enum(AuditActions),
  /** Who did it; null when nobody signed in did (a failed sign-in's actor is the account tried). */
  actor: z.object({ id: z.number().int(), username: z.string(), name: z.string() }).nullable(),
  target: z
    .object({ kind: z.enum(AuditTargetKinds), id: z.number().int().nullable(), name: z.string().nullable() })
    .nullable(),
  address: z.string().nullable(),
  user_agent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

const isoDate = z.iso.date();

/** GET workspaces/{id}/audit/: filters and the keyset cursor (the last id of the page before). */
export const ZAuditQuery = z.object({
  actor: z.coerce.number().int().positive().optional(),
  action: z.enum(AuditActions).optional(),
  /** Inclusive days (UTC). */
  from: isoDate.optional(),
  to: isoDate.optional(),
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(AuditLimits.page.max).default(AuditLimits.page.default),
});
export type TAuditQuery = z.infer<typeof ZAuditQuery>;

export const ZAuditPage = z.object({
  results: z.array(ZAuditEntry),
  /** Pass as `before` for the next page; null on the last. */
  next: z.number().int().nullable(),
});
export type TAuditPage = z.infer<typeof ZAuditPage>;
