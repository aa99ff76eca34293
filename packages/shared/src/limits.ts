/**
 * Every numeric bound of the product in one place (docs/rules.md §Limits), so the database,
 * the zod schemas and the UI can never disagree.
 */
export const Limits = {
  name: { min: 1, max: 200 },
  description: { max: 10_000 },
  comment: { max: 20_000 },
  username: { min: 3, max: 150 },
  email: { max: 254 },
  /** One entry of the invite box: longer ones than a username or e-mail can be fail alone (decision 196). */
  inviteEntry: { max: 2_000 },
  personName: { max: 150 },
  password: { min: 8, max: 256 },
  code: { length: 6, ttlMinutes: 10, maxAttempts: 5 },
  /** Seconds before another code may be sent (docs/rules.md §Limits `otp_timeout`). */
  otpTimeoutSeconds: 30,
  /** Seconds before a workspace invite may be e-mailed again (resend). */
  inviteResendSeconds: 30,
  accessTokenMinutes: 5,
  refreshTokenDays: 30,
  avatar: { maxBytes: 2 * 1024 * 1024 },
  /** Files (docs/files.md): defaults of MAX_UPLOAD_MB and WORKSPACE_QUOTA_MB, the file name's length. */
  attachment: { defaultMaxMb: 100, defaultQuotaMb: 5_000, nameMax: 255 },
  /**
   * Default of MAX_OWNED_WORKSPACES: the workspaces one user may own, so the per-workspace file quota
   * cannot be multiplied (docs/security.md).
   */
  ownedWorkspaces: { defaultMax: 10 },
  /** Lifetime of the signed token in a file's content URL. */
  attachmentUrlMinutes: 15,
  batchUnits: { min: 1, max: 10_000 },
  /** CSV import of units (docs/integrations.md): data lines and bytes of one file. */
  csvImport: { maxLines: 10_000, maxBytes: 16 * 1024 * 1024 },
  pipelineStages: { max: 500 },
  /**
   * Webhooks (docs/security.md, "Webhooks"): of one workspace; failed tries in a row (any delivery)
   * after which one is paused until an admin resumes it; hours the previous signing secret still
   * signs beside the new one after a rotation.
   */
  webhooks: { perWorkspace: 30, pauseAfterFailures: 20, rotationOverlapHours: 24 },
  /** Largest id a route accepts: ids are PostgreSQL `integer`. */
  maxId: 2_147_483_647,
  pageSize: { default: 50, max: 500 },
} as const;

/** Client-side constants of docs/rules.md §Limits. */
export const ClientConstants = {
  toastDurationMs: 3000,
  toastTransitionMs: 300,
  tokenRefreshRetries: 10,
  tokenRefreshDelayMs: 100,
  chunkLoadTimeoutMs: 120_000,
  pipelineStateMaxAgeDays: 15,
  breakpoints: { wide: 990, narrow: 576 },
} as const;
