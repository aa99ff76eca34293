/** What the workspace schema needs of the audit log (docs/history-and-audit.md); the rest is `@stageline/shared/audit`. */
export const AuditLimits = {
  /** How long entries are kept (a workspace setting, in days). */
  retentionDays: { min: 30, max: 3650, default: 365 },
  /** One page of the list. */
  page: { default: 50, max: 200 },
  /** The CSV export's most rows. */
  exportRows: 100_000,
} as const;
