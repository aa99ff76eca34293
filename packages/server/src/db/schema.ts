// One file on purpose: drizzle-kit generates migrations from this single schema, and the tables reference each other (docs/architecture.md, "Database").
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import {
  AssignableRoles,
  AuditLimits,
  IterationOutcomes,
  Limits,
  ReviewModes,
  HistoryActions,
  Roles,
  TimeLimits,
  TaskStatuses,
  type TAssignableRole,
  type TIterationOutcome,
  type TReviewMode,
  type TRole,
  type THistoryAction,
  type TTaskStatus,
  FieldLimits,
  type TFieldValue,
} from '@stageline/shared';
import {
  FieldKinds,
  FieldTargets,
  type TFieldKind,
  type TFieldOption,
  type TFieldTarget,
} from '@stageline/shared/fields';
import { ClientFeedbackKinds, ReviewSessionLimits, type TClientFeedbackKind } from '@stageline/shared/review-sessions';

/**
 * The database schema, one `pgTable` definition for PGlite and PostgreSQL alike. Migrations in
 * `../../drizzle` are generated from it with `npm run db:generate` and checked in.
 */
const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A CHECK that a column holds one word of a shared list: the same list the zod schemas and the engine
 * use (`Roles`, `TaskStatuses`…), so the database, the API and the code cannot disagree.
 */
const oneOf = (column: AnyPgColumn, values: readonly string[]) =>
  sql`${column} in (${sql.raw(values.map((value) => `'${value}'`).join(', '))})`;

/**
 * The name of a workspace, project, pipeline or unit: its column collation `natural_sort` (ICU,
 * numeric; created by migration 0006) orders digit runs by value, so `order by name` lists "Shot 2"
 * before "Shot 10" on PGlite and PostgreSQL alike, and the indexes on the column follow it
 * (docs/decisions.md, entry 59). Drizzle has no column collation, hence the custom type.
 */
export const naturalSortCollation = 'natural_sort';
const displayName = customType<{ data: string }>({
  dataType: () => `varchar(${Limits.name.max}) collate "${naturalSortCollation}"`,
});

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    username: varchar('username', { length: Limits.username.max }).notNull(),
    email: varchar('email', { length: Limits.email.max }).notNull(),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** argon2id hash; null for accounts that only sign in through OAuth. */
    passwordHash: text('password_hash'),
    firstName: varchar('first_name', { length: Limits.personName.max }).notNull().default(''),
    lastName: varchar('last_name', { length: Limits.personName.max }).notNull().default(''),
    language: varchar('language', { length: 8 }).notNull().default('en'),
    twoFactor: boolean('two_factor').notNull().default(false),
    /** Bumped on every avatar change (the image itself is in `avatars`); null: no avatar. */
    avatarVersion: integer('avatar_version'),
    recentWorkspaceId: integer('recent_workspace_id').references((): AnyPgColumn => workspaces.id, {
      onDelete: 'set null',
    }),
    notifyBrowser: boolean('notify_browser').notNull().default(true),
    emailFrequency: varchar('email_frequency', { length: 16 }).notNull().default('daily'),
    /** IANA name; null until the browser told it (treated as UTC). */
    timeZone: varchar('time_zone', { length: 64 }),
    /** The quickstart (docs/rules.md §Web): offered while `pending`, resumable when `skipped`. */
    onboarding: varchar('onboarding', { length: 16 }).notNull().default('pending'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt),
    check('users_onboarding_check', sql`${t.onboarding} in ('pending', 'skipped', 'done')`),
  ],
);

/** The re-encoded avatar image (WebP), apart from `users` so user reads never load it. */
export const avatars = pgTable('avatars', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  contentType: varchar('content_type', { length: 64 }).notNull(),
  image: bytea('image').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/**
 * A signed-in device: one refresh-token family. Each refresh rotates `refresh_jti`; a refresh token
 * of the family with another jti is a reused (stolen) one and revokes the whole family.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    refreshJti: varchar('refresh_jti', { length: 64 }).notNull(),
    rotations: integer('rotations').notNull().default(0),
    userAgent: varchar('user_agent', { length: 512 }),
    ip: varchar('ip', { length: 64 }),
    createdAt: at('created_at').notNull().defaultNow(),
    lastUsedAt: at('last_used_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('sessions_user_id_idx').on(t.userId)],
);

/** E-mailed one-time codes (docs/rules.md §Accounts), stored as keyed hashes. */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: varchar('purpose', { length: 32 }).notNull(),
    codeHash: varchar('code_hash', { length: 128 }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    payload: jsonb('payload'),
    sentAt: at('sent_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    consumedAt: at('consumed_at'),
  },
  (t) => [index('one_time_codes_user_purpose_idx').on(t.userId, t.purpose)],
);

/** Single-use links for a forgotten password. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 128 }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [uniqueIndex('password_reset_tokens_hash_key').on(t.tokenHash)],
);

/** Single-use links that confirm a new e-mail address, sent to that address. */
export const emailChangeTokens = pgTable(
  'email_change_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    newEmail: varchar('new_email', { length: Limits.email.max }).notNull(),
    tokenHash: varchar('token_hash', { length: 128 }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [uniqueIndex('email_change_tokens_hash_key').on(t.tokenHash)],
);

/** Accounts of other services a user signs in with (filled by the OAuth feature). */
export const oauthAccounts = pgTable(
  'oauth_accounts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: varchar('provider', { length: 64 }).notNull(),
    subject: varchar('subject', { length: 255 }).notNull(),
    email: varchar('email', { length: Limits.email.max }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('oauth_accounts_provider_subject_key').on(t.provider, t.subject),
    index('oauth_accounts_user_id_idx').on(t.userId),
  ],
);

/** Every mail the server sends; without SMTP it is the dev outbox. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    to: varchar('to', { length: Limits.email.max }).notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    sentAt: at('sent_at'),
    error: text('error'),
  },
  (t) => [index('mail_outbox_created_at_idx').on(t.createdAt)],
);

/**
 * Personal API tokens: a keyed hash of the secret (never the secret), the scope, an optional expiry
 * and when it was last used (touched at most once a minute). Deleting the row revokes it.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    scope: varchar('scope', { length: 8 }).notNull(),
    tokenHash: varchar('token_hash', { length: 128 }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at'),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [
    uniqueIndex('api_tokens_token_hash_key').on(t.tokenHash),
    index('api_tokens_user_id_idx').on(t.userId),
    check('api_tokens_scope_check', sql`${t.scope} in ('read', 'write')`),
  ],
);

/**
 * A workspace's webhook: where to POST which events, signed with `secret` (kept as is: every
 * delivery is signed with it) and, until `previous_secret_until` after a rotation, with
 * `previous_secret` too. `failing_since` marks the start of a streak of failed deliveries; a day of
 * them turns the webhook off (`active` false, `disabled_reason`). `failures` counts failed tries in
 * a row; at `Limits.webhooks.pauseAfterFailures` the webhook is paused (`paused_at`) until resumed.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    url: varchar('url', { length: 2000 }).notNull(),
    events: text('events').array().notNull(),
    secret: varchar('secret', { length: 128 }).notNull(),
    active: boolean('active').notNull().default(true),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    failingSince: at('failing_since'),
    disabledReason: text('disabled_reason'),
    previousSecret: varchar('previous_secret', { length: 128 }),
    previousSecretUntil: at('previous_secret_until'),
    failures: integer('failures').notNull().default(0),
    pausedAt: at('paused_at'),
  },
  (t) => [index('webhooks_workspace_id_idx').on(t.workspaceId)],
);

/**
 * One delivery of one event to one webhook: written in the transaction of the change (the outbox),
 * sent after it commits, retried with backoff. `locked_until` is the lease of the process sending it,
 * so several processes never send one delivery twice. Kept 30 days.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: varchar('event', { length: 40 }).notNull(),
    data: jsonb('data').notNull(),
    status: varchar('status', { length: 12 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').defaultNow(),
    lockedUntil: at('locked_until'),
    lastAttemptAt: at('last_attempt_at'),
    responseStatus: integer('response_status'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    responseExcerpt: text('response_excerpt'),
    redeliveryOf: bigint('redelivery_of', { mode: 'number' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_webhook_id_idx').on(t.webhookId, t.id),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    // The dispatcher's claim: each webhook's oldest due deliveries, and its leases in flight.
    index('webhook_deliveries_pending_idx')
      .on(t.webhookId, t.nextAttemptAt, t.id)
      .where(sql`status = 'pending'`),
    check('webhook_deliveries_status_check', sql`${t.status} in ('pending', 'succeeded', 'failed')`),
  ],
);

/**
 * Saved views of a project's matrix or task lists: filters as URL query pairs, personal or shared
 * with the workspace (docs/decisions.md).
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    kind: varchar('kind', { length: 12 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    filters: jsonb('filters').notNull(),
    sort: varchar('sort', { length: 40 }),
    shared: boolean('shared').notNull().default(false),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('saved_views_project_idx').on(t.projectId, t.kind),
    check('saved_views_kind_check', sql`${t.kind} in ('matrix', 'tasks')`),
  ],
);

/**
 * Rate-limit counters shared by every process on the database (docs/security.md): one fixed window
 * per key (`login-ip:…`, `login-fail:account:…`), counted with one atomic upsert. Expired rows are
 * pruned hourly.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: varchar('key', { length: 200 }).primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: at('reset_at').notNull(),
  },
  (t) => [index('rate_limits_reset_at_idx').on(t.resetAt)],
);

/** Secrets generated once and shared by every process on the same database. */
export const appSecrets = pgTable('app_secrets', {
  name: varchar('name', { length: 64 }).primaryKey(),
  value: text('value').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/** Hours with two decimals (estimates, time logs, docs/time.md), read as JavaScript numbers. */
const hours = (name: string) => numeric(name, { precision: 7, scale: 2, mode: 'number' });

/**
 * A team's space (docs/rules.md §Vocabulary). `owner_id` mirrors the one `owner` membership, kept in
 * step by delegation.
 */
export const workspaces = pgTable(
  'workspaces',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    name: displayName('name').notNull(),
    description: text('description').notNull().default(''),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** The groups of files uploads may be (`FileTypeGroups`, decision 198). */
    allowedFileTypes: text('allowed_file_types')
      .array()
      .notNull()
      .default(sql`'{media,documents,archives}'::text[]`),
    /** Hours in a working day, to show estimates in days (docs/time.md). */
    hoursPerDay: hours('hours_per_day').notNull().default(TimeLimits.hoursPerDay.default),
    /** Days the audit log keeps its entries (docs/history-and-audit.md). */
    auditRetentionDays: integer('audit_retention_days').notNull().default(AuditLimits.retentionDays.default),
    /** ISO weekdays (1 Monday … 7 Sunday) that are working days (docs/schedule.md, "Calendar"). */
    workingDays: integer('working_days')
      .array()
      .notNull()
      .default(sql`'{1,2,3,4,5}'::integer[]`),
    /** Members (not only Admins) may share review sessions with clients (docs/review-sessions.md). */
    membersShareReviews: boolean('members_share_reviews').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('workspaces_owner_id_idx').on(t.ownerId),
    check(
      'workspaces_audit_retention_check',
      sql`${t.auditRetentionDays} between ${sql.raw(String(AuditLimits.retentionDays.min))} and ${sql.raw(String(AuditLimits.retentionDays.max))}`,
    ),
    check(
      'workspaces_working_days_check',
      sql`cardinality(${t.workingDays}) between 1 and 7 and ${t.workingDays} <@ '{1,2,3,4,5,6,7}'::integer[]`,
    ),
    check(
      'workspaces_hours_per_day_check',
      sql`${t.hoursPerDay} between ${sql.raw(String(TimeLimits.hoursPerDay.min))} and ${sql.raw(String(TimeLimits.hoursPerDay.max))}`,
    ),
  ],
);

/**
 * A user in a workspace with a role. The database itself keeps the team rules no race can break: one
 * membership per user and workspace, exactly one `owner` per workspace.
 */
export const memberships = pgTable(
  'memberships',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: varchar('role', { length: 16 }).$type<TRole>().notNull(),
    /** How they joined: by a link, by a user's invite, or null for the creator. */
    invitedBy: varchar('invited_by', { length: 8 }),
    inviterId: integer('inviter_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('memberships_workspace_user_key').on(t.workspaceId, t.userId),
    uniqueIndex('memberships_one_owner_key')
      .on(t.workspaceId)
      .where(sql`role = 'owner'`),
    index('memberships_user_id_idx').on(t.userId),
    check('memberships_role_check', oneOf(t.role, Roles)),
    check('memberships_invited_by_check', sql`${t.invitedBy} is null or ${t.invitedBy} in ('link', 'user')`),
  ],
);

/**
 * A direct invite: to an account (`user_id`) or to an e-mail with no account yet (`email`, lowercase;
 * it reaches whoever verifies that address). `token_hash` is the keyed hash of the `/p/{token}` link.
 */
export const invites = pgTable(
  'invites',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    email: varchar('email', { length: Limits.email.max }),
    /** What the inviter typed (a username or an e-mail): all the team list shows of a pending invite. */
    invitedAs: varchar('invited_as', { length: Limits.email.max }),
    role: varchar('role', { length: 16 }).$type<TAssignableRole>().notNull(),
    inviterId: integer('inviter_id').references(() => users.id, { onDelete: 'set null' }),
    tokenHash: varchar('token_hash', { length: 128 }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    createdAt: at('created_at').notNull().defaultNow(),
    sentAt: at('sent_at').notNull().defaultNow(),
    respondedAt: at('responded_at'),
  },
  (t) => [
    uniqueIndex('invites_token_hash_key').on(t.tokenHash),
    uniqueIndex('invites_pending_email_key')
      .on(t.workspaceId, t.email)
      .where(sql`status = 'pending'`),
    uniqueIndex('invites_pending_user_key')
      .on(t.workspaceId, t.userId)
      .where(sql`status = 'pending'`),
    index('invites_user_id_idx').on(t.userId),
    index('invites_email_idx').on(t.email),
    check('invites_addressee_check', sql`${t.userId} is not null or ${t.email} is not null`),
    check('invites_email_lower_check', sql`${t.email} = lower(${t.email})`),
    check('invites_role_check', oneOf(t.role, AssignableRoles)),
    check('invites_status_check', sql`${t.status} in ('pending', 'accepted', 'declined', 'cancelled')`),
  ],
);

/**
 * The invite link of a workspace (`/i/{token}`): at most one active. The token is kept as is, since
 * admins see the active link again; it is random (256 bits) and disabled links stop working.
 */
export const inviteLinks = pgTable(
  'invite_links',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    token: varchar('token', { length: 64 }).notNull(),
    role: varchar('role', { length: 16 }).$type<TAssignableRole>().notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    disabledAt: at('disabled_at'),
  },
  (t) => [
    uniqueIndex('invite_links_token_key').on(t.token),
    uniqueIndex('invite_links_active_key')
      .on(t.workspaceId)
      .where(sql`disabled_at is null`),
    check('invite_links_role_check', oneOf(t.role, AssignableRoles)),
  ],
);

const reviewModeCheck = (column: AnyPgColumn) => oneOf(column, ReviewModes);

/** Review settings a project gives its new stages, and each stage keeps its own copy of (docs/rules.md §Tasks). */
const reviewSettings = {
  reviewMode: varchar('review_mode', { length: 16 }).$type<TReviewMode>().notNull().default('each_immediate'),
  skipReviewIfNoReviewers: boolean('skip_review_if_no_reviewers').notNull().default(false),
  acceptEditAsDone: boolean('accept_edit_as_done').notNull().default(false),
  todoEnabled: boolean('todo_enabled').notNull().default(true),
};

/** A body of work inside one workspace (docs/rules.md §Vocabulary), with the review defaults of its new stages. */
export const projects = pgTable(
  'projects',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: displayName('name').notNull(),
    description: text('description').notNull().default(''),
    ...reviewSettings,
    /**
     * How many units the project has, kept by statement-level triggers on `units` (migration 0013;
     * docs/decisions.md, entry 104), so reading a project never counts its units.
     */
    unitsCount: integer('units_count').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('projects_workspace_id_idx').on(t.workspaceId),
    check('projects_review_mode_check', reviewModeCheck(t.reviewMode)),
  ],
);

/**
 * A diagram of stages inside a project. `version` grows with every save of the graph or of a stage,
 * so a save made from a stale copy is refused (409) instead of silently undoing someone's work.
 */
export const pipelines = pgTable(
  'pipelines',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: displayName('name').notNull(),
    description: text('description').notNull().default(''),
    layout: varchar('layout', { length: 16 }).notNull().default('vertical'),
    version: integer('version').notNull().default(0),
    /** How many units the pipeline has, kept like `projects.units_count`. */
    unitsCount: integer('units_count').notNull().default(0),
    /** How many tasks the pipeline has, kept the same way by triggers on `tasks` (decision 108). */
    tasksCount: integer('tasks_count').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('pipelines_project_id_idx').on(t.projectId),
    check('pipelines_layout_check', sql`${t.layout} in ('horizontal', 'vertical')`),
  ],
);

/**
 * A node of a pipeline: its start (`root`), its `end`, or a `stage` with its settings. The partial
 * unique index keeps one root and one end per pipeline whatever the code does.
 */
export const stages = pgTable(
  'stages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    pipelineId: integer('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 8 }).notNull(),
    name: varchar('name', { length: Limits.name.max }).notNull(),
    description: text('description').notNull().default(''),
    x: doublePrecision('x').notNull().default(0),
    y: doublePrecision('y').notNull().default(0),
    ...reviewSettings,
    /** Days after the task becomes ready, or a fixed date, or neither (never both). */
    defaultDueDays: integer('default_due_days'),
    defaultDueDate: date('default_due_date', { mode: 'string' }),
    /** Review rules (docs/review-rules.md): approvals a round needs (null: the mode's own), self-review. */
    requiredApprovals: integer('required_approvals'),
    allowSelfReview: boolean('allow_self_review').notNull().default(false),
    /** Only Admins may skip this stage's review (docs/review-rules.md, "Skipping review"). */
    enforceReview: boolean('enforce_review').notNull().default(false),
    /** The estimate each new task of the stage starts with (docs/time.md). */
    defaultEstimateHours: hours('default_estimate_hours'),
    /** "Starts when its inputs are done, lasts N working days" (docs/schedule.md), or null. */
    defaultDurationDays: integer('default_duration_days'),
    ...timestamps,
  },
  (t) => [
    index('stages_pipeline_id_idx').on(t.pipelineId),
    // The target of a task's (stage, pipeline) key, so a task's stored pipeline is its stage's.
    uniqueIndex('stages_id_pipeline_id_key').on(t.id, t.pipelineId),
    uniqueIndex('stages_one_root_end_key')
      .on(t.pipelineId, t.kind)
      .where(sql`kind in ('root', 'end')`),
    check('stages_kind_check', sql`${t.kind} in ('root', 'end', 'stage')`),
    check('stages_review_mode_check', reviewModeCheck(t.reviewMode)),
    check('stages_due_days_check', sql`${t.defaultDueDays} is null or ${t.defaultDueDays} >= 0`),
    check('stages_due_one_kind_check', sql`${t.defaultDueDays} is null or ${t.defaultDueDate} is null`),
    check('stages_required_approvals_check', sql`${t.requiredApprovals} is null or ${t.requiredApprovals} >= 1`),
    check('stages_default_estimate_check', sql`${t.defaultEstimateHours} is null or ${t.defaultEstimateHours} > 0`),
    check('stages_default_duration_check', sql`${t.defaultDurationDays} is null or ${t.defaultDurationDays} >= 0`),
  ],
);

/** A connection of a pipeline: `source` must be done before `target` is ready. */
export const stageEdges = pgTable(
  'stage_edges',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    pipelineId: integer('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    sourceId: integer('source_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    targetId: integer('target_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
  },
  (t) => [
    uniqueIndex('stage_edges_source_target_key').on(t.sourceId, t.targetId),
    index('stage_edges_pipeline_id_idx').on(t.pipelineId),
    index('stage_edges_target_id_idx').on(t.targetId),
    check('stage_edges_no_self_loop_check', sql`${t.sourceId} <> ${t.targetId}`),
  ],
);

/**
 * Default assignees and reviewers of a stage: rows, not arrays, so a deleted user disappears with
 * the cascade and "stages where I am a default reviewer" is an indexed lookup for the task lists.
 * Reads keep only users who are still members of the workspace.
 */
const stagePeople = (name: string) =>
  pgTable(
    name,
    {
      stageId: integer('stage_id')
        .notNull()
        .references(() => stages.id, { onDelete: 'cascade' }),
      userId: integer('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
    },
    (t) => [primaryKey({ columns: [t.stageId, t.userId] }), index(`${name}_user_id_idx`).on(t.userId)],
  );
export const stageDefaultAssignees = stagePeople('stage_default_assignees');
export const stageDefaultReviewers = stagePeople('stage_default_reviewers');

/** A work item of a project, attached to one pipeline (docs/rules.md §Vocabulary); it has one task per stage. */
export const units = pgTable(
  'units',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    pipelineId: integer('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    name: displayName('name').notNull(),
    description: text('description').notNull().default(''),
    /**
     * Custom field values by field key (docs/custom-fields.md): read with the row, so the matrix
     * needs no statement for them; filtered through the GIN index below (decision 210).
     */
    fields: jsonb('fields').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    index('units_pipeline_id_name_idx').on(t.pipelineId, t.name, t.id),
    index('units_pipeline_id_created_idx').on(t.pipelineId, t.createdAt, t.id),
    index('units_project_id_idx').on(t.projectId),
    index('units_fields_idx').using('gin', t.fields.op('jsonb_path_ops')),
  ],
);

/**
 * A custom field of a project (docs/custom-fields.md): its key names the value in `units.fields`
 * and never changes, nor do its kind and target; archived instead of deleted, so no value is lost.
 */
export const fieldDefinitions = pgTable(
  'field_definitions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: FieldLimits.key.max }).notNull(),
    name: varchar('name', { length: FieldLimits.name.max }).notNull(),
    kind: varchar('kind', { length: 16 }).$type<TFieldKind>().notNull(),
    appliesTo: varchar('applies_to', { length: 8 }).$type<TFieldTarget>().notNull().default('unit'),
    /** Stages whose tasks have the field (task fields); empty: all. */
    stageIds: integer('stage_ids')
      .array()
      .notNull()
      .default(sql`'{}'::int[]`),
    required: boolean('required').notNull().default(false),
    defaultValue: jsonb('default_value').$type<TFieldValue>(),
    unit: varchar('unit', { length: FieldLimits.unit.max }).notNull().default(''),
    options: jsonb('options').$type<TFieldOption[]>().notNull().default([]),
    position: integer('position').notNull().default(0),
    archivedAt: at('archived_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('field_definitions_project_key_key').on(t.projectId, t.key),
    check('field_definitions_kind_check', oneOf(t.kind, FieldKinds)),
    check('field_definitions_applies_to_check', oneOf(t.appliesTo, FieldTargets)),
  ],
);

/**
 * One unit at one stage (docs/rules.md §Tasks). `ready_at` is when it last became ready (all predecessor
 * tasks done), kept by the server because a stage's default due date counts days from it; `ready`
 * and `overdue` themselves are computed at read time. `iteration_number` is the latest review round
 * (0: none yet); its row is in `task_iterations`.
 */
export const tasks = pgTable(
  'tasks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    unitId: integer('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    stageId: integer('stage_id').notNull(),
    /** The stage's pipeline, stored so a pipeline's tasks have an index of their own (decision 108). */
    pipelineId: integer('pipeline_id').notNull(),
    status: varchar('status', { length: 16 }).$type<TTaskStatus>().notNull(),
    useStageDefaults: boolean('use_stage_defaults').notNull().default(true),
    dueDate: at('due_date'),
    readyAt: at('ready_at'),
    /**
     * The due date that applies: `due_date`, or the stage's default while `use_stage_defaults`. Kept
     * by the database (`task_effective_due` and its triggers, decision 108); inserts compute it.
     */
    effectiveDue: at('effective_due'),
    iterationNumber: integer('iteration_number').notNull().default(0),
    /** When an assignee last reminded the reviewers (docs/review-rules.md: at most once an hour). */
    remindedAt: at('reminded_at'),
    /** Hours the task is expected to take, or null; its stage's default when made (docs/time.md). */
    estimateHours: hours('estimate_hours'),
    /** The planned start (a calendar day), or null: the forecast then starts it after its inputs (docs/schedule.md). */
    startDate: date('start_date', { mode: 'string' }),
    ...timestamps,
  },
  (t) => [
    // Also serves every lookup by unit (its leading column).
    uniqueIndex('tasks_unit_id_stage_id_key').on(t.unitId, t.stageId),
    index('tasks_stage_id_status_idx').on(t.stageId, t.status),
    foreignKey({
      name: 'tasks_stage_pipeline_fk',
      columns: [t.stageId, t.pipelineId],
      foreignColumns: [stages.id, stages.pipelineId],
    }).onDelete('cascade'),
    // A pipeline's tasks in the lists' order: soonest effective due date first (none last), then id.
    index('tasks_pipeline_due_idx').on(t.pipelineId, sql`coalesce(${t.effectiveDue}, 'infinity'::timestamptz)`, t.id),
    check('tasks_status_check', oneOf(t.status, TaskStatuses)),
    check('tasks_iteration_number_check', sql`${t.iterationNumber} >= 0`),
    check('tasks_estimate_check', sql`${t.estimateHours} is null or ${t.estimateHours} > 0`),
  ],
);

/** A task's own assignees and reviewers, used while `use_stage_defaults` is false. */
const taskPeople = (name: string) =>
  pgTable(
    name,
    {
      taskId: integer('task_id')
        .notNull()
        .references(() => tasks.id, { onDelete: 'cascade' }),
      userId: integer('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
    },
    (t) => [primaryKey({ columns: [t.taskId, t.userId] }), index(`${name}_user_id_idx`).on(t.userId)],
  );
export const taskAssignees = taskPeople('task_assignees');
export const taskReviewers = taskPeople('task_reviewers');

/**
 * Teams of a workspace (docs/review-rules.md): named groups of members that can be default
 * assignees or reviewers of a stage, assignees or reviewers of a task, and the subject of a stage's
 * review rules. A person may be in several; reads keep only current members of the workspace.
 */
export const teams = pgTable(
  'teams',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    name: displayName('name').notNull(),
    color: varchar('color', { length: 7 }).notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('teams_workspace_id_name_key').on(t.workspaceId, t.name)],
);

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index('team_members_user_id_idx').on(t.userId)],
);

/** Teams as default assignees or reviewers of a stage, or as a task's own: rows, like people. */
const teamLinks = (name: string, owner: 'stage' | 'task') =>
  pgTable(
    name,
    {
      ownerId: integer(`${owner}_id`)
        .notNull()
        .references((): AnyPgColumn => (owner === 'stage' ? stages.id : tasks.id), { onDelete: 'cascade' }),
      teamId: integer('team_id')
        .notNull()
        .references(() => teams.id, { onDelete: 'cascade' }),
    },
    (t) => [primaryKey({ columns: [t.ownerId, t.teamId] }), index(`${name}_team_id_idx`).on(t.teamId)],
  );
export const stageDefaultAssigneeTeams = teamLinks('stage_default_assignee_teams', 'stage');
export const stageDefaultReviewerTeams = teamLinks('stage_default_reviewer_teams', 'stage');
export const taskAssigneeTeams = teamLinks('task_assignee_teams', 'task');
export const taskReviewerTeams = teamLinks('task_reviewer_teams', 'task');

/** "At least `required` approvals from this team" in every round of the stage's tasks. */
export const stageTeamRules = pgTable(
  'stage_team_rules',
  {
    stageId: integer('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    required: integer('required').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.stageId, t.teamId] }),
    index('stage_team_rules_team_id_idx').on(t.teamId),
    check('stage_team_rules_required_check', sql`${t.required} >= 1`),
  ],
);

/** One review round of a task: opened on entering `review`, closed with an outcome (docs/rules.md §Tasks). */
export const taskIterations = pgTable(
  'task_iterations',
  {
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    /** The predecessor stages the rejections of this round asked to redo (their union). */
    returnTo: integer('return_to')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    closed: boolean('closed').notNull().default(false),
    outcome: varchar('outcome', { length: 16 }).$type<TIterationOutcome>(),
    createdAt: at('created_at').notNull().defaultNow(),
    closedAt: at('closed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.taskId, t.number] }),
    check('task_iterations_outcome_check', sql`${t.outcome} is null or ${oneOf(t.outcome, IterationOutcomes)}`),
  ],
);

/**
 * A reviewer's accept or reject in one round. The primary key makes a second reaction of the same
 * reviewer in the same round impossible, whatever the code does.
 */
export const taskReactions = pgTable(
  'task_reactions',
  {
    taskId: integer('task_id').notNull(),
    iteration: integer('iteration').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verdict: varchar('verdict', { length: 8 }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.taskId, t.iteration, t.userId] }),
    foreignKey({
      columns: [t.taskId, t.iteration],
      foreignColumns: [taskIterations.taskId, taskIterations.number],
    }).onDelete('cascade'),
    check('task_reactions_verdict_check', sql`${t.verdict} in ('accept', 'reject')`),
  ],
);

/** Every transition and reaction of a task (docs/rules.md §Tasks): who, when, from, to, round, comment. */
export const taskHistory = pgTable(
  'task_history',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    action: varchar('action', { length: 16 }).$type<THistoryAction>().notNull(),
    fromStatus: varchar('from_status', { length: 16 }).$type<TTaskStatus>(),
    toStatus: varchar('to_status', { length: 16 }).$type<TTaskStatus>(),
    iteration: integer('iteration'),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    comment: text('comment'),
    /** `log_time`: the day, and the actor's hours on it after the change (0: deleted), docs/time.md. */
    logDate: date('log_date', { mode: 'string' }),
    logHours: hours('log_hours'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('task_history_task_id_created_at_idx').on(t.taskId, t.createdAt, t.id),
    check('task_history_action_check', oneOf(t.action, HistoryActions)),
    check('task_history_from_status_check', sql`${t.fromStatus} is null or ${oneOf(t.fromStatus, TaskStatuses)}`),
    check('task_history_to_status_check', sql`${t.toStatus} is null or ${oneOf(t.toStatus, TaskStatuses)}`),
  ],
);

/**
 * A Markdown comment on a unit or a task (exactly one). `workspace_id` is copied from the target so
 * live events and permission checks need no joins. `mentions` are the member ids the text named.
 */
export const comments = pgTable(
  'comments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    unitId: integer('unit_id').references(() => units.id, { onDelete: 'cascade' }),
    taskId: integer('task_id').references(() => tasks.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    mentions: integer('mentions')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    createdAt: at('created_at').notNull().defaultNow(),
    editedAt: at('edited_at'),
  },
  (t) => [
    index('comments_task_id_idx').on(t.taskId, t.createdAt, t.id),
    index('comments_unit_id_idx').on(t.unitId, t.createdAt, t.id),
    index('comments_author_id_idx').on(t.authorId),
    check('comments_target_check', sql`(${t.unitId} is null) <> (${t.taskId} is null)`),
    check('comments_text_check', sql`char_length(${t.text}) between 1 and ${sql.raw(String(Limits.comment.max))}`),
  ],
);

/**
 * A file on a task, a unit or a comment (docs/files.md). The bytes live in the storage named by
 * `storage_key` (`file_chunks` below, or S3). Deleting the record it is on sets its reference to
 * null rather than cascading: a job then deletes the bytes and the row (a large delete does not block
 * the request), as it does for uploads never completed (`completed_at` null).
 */
export const attachments = pgTable(
  'attachments',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id').references(() => workspaces.id, { onDelete: 'set null' }),
    taskId: integer('task_id').references(() => tasks.id, { onDelete: 'set null' }),
    unitId: integer('unit_id').references(() => units.id, { onDelete: 'set null' }),
    commentId: integer('comment_id').references(() => comments.id, { onDelete: 'set null' }),
    /** The task's review round when attached (task files and files of task comments). */
    round: integer('round'),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    name: varchar('name', { length: Limits.attachment.nameMax }).notNull(),
    contentType: varchar('content_type', { length: 128 }).notNull().default('application/octet-stream'),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    storageKey: varchar('storage_key', { length: 128 }).notNull(),
    /** A WebP of at most 320 px for images; small, so kept in the row. */
    thumbnail: bytea('thumbnail'),
    /**
     * Set while an image waits for its thumbnail (made after the upload's answer, docs/files.md);
     * the queue claims a row by moving it, and a process starting takes up the rows left waiting.
     */
    thumbnailQueuedAt: at('thumbnail_queued_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    completedAt: at('completed_at'),
  },
  (t) => [
    index('attachments_task_id_idx').on(t.taskId),
    index('attachments_unit_id_idx').on(t.unitId),
    index('attachments_comment_id_idx').on(t.commentId),
    index('attachments_workspace_id_idx').on(t.workspaceId),
    index('attachments_thumbnail_queued_idx')
      .on(t.thumbnailQueuedAt)
      .where(sql`${t.thumbnailQueuedAt} is not null`),
    check('attachments_target_check', sql`num_nonnulls(${t.taskId}, ${t.unitId}, ${t.commentId}) <= 1`),
  ],
);

/** The bytes of files kept in the database: 1 MiB chunks in order (docs/files.md). */
export const fileChunks = pgTable(
  'file_chunks',
  {
    key: varchar('key', { length: 128 }).notNull(),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);

/**
 * One in-app notification of one user (docs/rules.md §Notifications). Unread while `read_at` is null; `emailed_at`
 * is set when a digest carried it, so no digest repeats it.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 24 }).notNull(),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    workspaceId: integer('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    unitId: integer('unit_id').references(() => units.id, { onDelete: 'cascade' }),
    taskId: integer('task_id').references(() => tasks.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    text: text('text').notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
    readAt: at('read_at'),
    emailedAt: at('emailed_at'),
  },
  (t) => [
    index('notifications_user_id_idx').on(t.userId, t.id),
    index('notifications_unread_idx')
      .on(t.userId, t.id)
      .where(sql`read_at is null`),
    index('notifications_undigested_idx')
      .on(t.userId, t.id)
      .where(sql`read_at is null and emailed_at is null`),
    check(
      'notifications_kind_check',
      sql`${t.kind} in ('assigned', 'reviewer_added', 'review_requested', 'accepted', 'rejected', 'comment', 'mention', 'invited', 'webhook_disabled', 'webhook_paused')`,
    ),
  ],
);

/**
 * The live event log behind `GET events/` (docs/rules.md §API): one row per change, addressed to one user
 * or to every member of one workspace. Its id is the SSE event id a client resumes from; rows older
 * than the retention window are pruned by a job. Written in the transaction of the change; a
 * `pg_notify` in the same transaction tells every server process once it commits.
 */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    workspaceId: integer('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    type: varchar('type', { length: 24 }).notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('events_user_id_idx').on(t.userId, t.id),
    index('events_workspace_id_idx').on(t.workspaceId, t.id),
    index('events_created_at_idx').on(t.createdAt),
    check('events_audience_check', sql`${t.userId} is not null or ${t.workspaceId} is not null`),
  ],
);

/**
 * One e-mail digest of one user for one period. The primary key makes a second send of the same
 * period impossible, however many server processes run the digest job at once.
 */
export const digestRuns = pgTable(
  'digest_runs',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    frequency: varchar('frequency', { length: 16 }).notNull(),
    periodStart: at('period_start').notNull(),
    notifications: integer('notifications').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.frequency, t.periodStart] })],
);

/**
 * One person's time on one task on one day (docs/time.md): a second log of the same day adds to the
 * row. `workspace_id` and `project_id` are copied from the task so lists and reports filter without
 * joins. A day's total per person (at most 24 h) is checked by the service under an advisory lock.
 */
export const timeLogs = pgTable(
  'time_logs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    hours: numeric('hours', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    note: text('note').notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('time_logs_user_task_date_key').on(t.userId, t.taskId, t.date),
    index('time_logs_user_date_idx').on(t.userId, t.date),
    index('time_logs_workspace_date_idx').on(t.workspaceId, t.date),
    index('time_logs_project_date_idx').on(t.projectId, t.date),
    index('time_logs_task_id_idx').on(t.taskId),
    check('time_logs_hours_check', sql`${t.hours} > 0 and ${t.hours} <= 24`),
  ],
);

/** A person's running timer (docs/time.md): at most one, on one task; stopping it makes a log. */
export const timers = pgTable(
  'timers',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    startedAt: at('started_at').notNull().defaultNow(),
  },
  (t) => [index('timers_task_id_idx').on(t.taskId)],
);

/**
 * The workspace audit log (docs/history-and-audit.md): append-only. A trigger (migration of this
 * table) refuses UPDATE and DELETE unless the transaction set `stageline.audit_retention` (the
 * retention job) or the workspace itself is gone (its cascade). Actor and target are not foreign
 * keys: an entry outlives the account or record it names, and keeps their names as they were.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id'),
    /** The actor's username when it was written. */
    actorUsername: varchar('actor_username', { length: 150 }),
    action: varchar('action', { length: 40 }).notNull(),
    targetKind: varchar('target_kind', { length: 16 }),
    targetId: integer('target_id'),
    targetName: varchar('target_name', { length: 300 }),
    ip: varchar('ip', { length: 64 }),
    userAgent: varchar('user_agent', { length: 512 }),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_workspace_idx').on(t.workspaceId, t.id),
    index('audit_log_actor_idx').on(t.workspaceId, t.actorId, t.id),
    index('audit_log_action_idx').on(t.workspaceId, t.action, t.id),
    index('audit_log_created_idx').on(t.workspaceId, t.createdAt),
  ],
);

/**
 * The history of units and tasks (docs/history-and-audit.md): one row per changed field, old → new
 * as JSON, written in the transaction of the change. A task's rows also carry its unit, so the
 * unit's timeline can show them.
 */
export const recordHistory = pgTable(
  'record_history',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    unitId: integer('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
    taskId: integer('task_id').references(() => tasks.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    field: varchar('field', { length: 80 }).notNull(),
    oldValue: jsonb('old_value'),
    newValue: jsonb('new_value'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('record_history_unit_idx').on(t.unitId, t.id),
    index('record_history_task_idx')
      .on(t.taskId, t.id)
      .where(sql`${t.taskId} is not null`),
  ],
);

/** Days off for everyone in a workspace (docs/schedule.md, "Calendar"). */
export const holidays = pgTable(
  'holidays',
  {
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    name: varchar('name', { length: Limits.name.max }).notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.date] })],
);

/** A person's own days off in a workspace (docs/schedule.md, "Calendar"). */
export const daysOff = pgTable(
  'days_off',
  {
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId, t.date] }), index('days_off_user_id_idx').on(t.userId)],
);

/** A date a project must meet, optionally for a set of its units (docs/schedule.md, "Milestones"). */
export const milestones = pgTable(
  'milestones',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: Limits.name.max }).notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    ...timestamps,
  },
  (t) => [index('milestones_project_id_date_idx').on(t.projectId, t.date)],
);

/** The units a milestone names; none: every unit of its project. */
export const milestoneUnits = pgTable(
  'milestone_units',
  {
    milestoneId: integer('milestone_id')
      .notNull()
      .references(() => milestones.id, { onDelete: 'cascade' }),
    unitId: integer('unit_id')
      .notNull()
      .references(() => units.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.milestoneId, t.unitId] }), index('milestone_units_unit_id_idx').on(t.unitId)],
);

/**
 * A person's iCalendar feed (docs/schedule.md, "Calendar feed"): one secret URL each, kept as the
 * SHA-256 of its token, so the database never holds a working link; deleting the row revokes it.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 128 }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('calendar_feeds_token_hash_key').on(t.tokenHash)],
);

/**
 * A review session (docs/review-sessions.md): a named, ordered list of a project's tasks that a
 * reviewer plays item by item. `workspace_id` is copied from the project for scoping.
 */
export const reviewSessions = pgTable(
  'review_sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: ReviewSessionLimits.name.max }).notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('review_sessions_project_idx').on(t.projectId, t.id)],
);

/** A task in a review session, at its place in the order; a task is in a session at most once. */
export const reviewSessionItems = pgTable(
  'review_session_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => reviewSessions.id, { onDelete: 'cascade' }),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [
    uniqueIndex('review_session_items_task_key').on(t.sessionId, t.taskId),
    index('review_session_items_task_idx').on(t.taskId),
  ],
);

/**
 * A share link of a review session for people without an account (docs/review-sessions.md): only the
 * HMAC of its token is stored; the password (optional) as an argon2id hash.
 */
export const reviewLinks = pgTable(
  'review_links',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => reviewSessions.id, { onDelete: 'cascade' }),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    passwordHash: text('password_hash'),
    mayComment: boolean('may_comment').notNull().default(true),
    mayDecide: boolean('may_decide').notNull().default(false),
    expiresAt: at('expires_at').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
    revokedAt: at('revoked_at'),
    revokedBy: integer('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('review_links_token_key').on(t.tokenHash), index('review_links_session_idx').on(t.sessionId)],
);

/**
 * What a client said through a review link about a task (docs/review-sessions.md): a comment, an
 * approval or a request for changes, with the name they gave and the task's round at the time.
 */
export const clientFeedback = pgTable(
  'client_feedback',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    taskId: integer('task_id')
      .notNull()
      .references(() => tasks.id, { onDelete: 'cascade' }),
    linkId: integer('link_id').references(() => reviewLinks.id, { onDelete: 'set null' }),
    sessionId: integer('session_id').references(() => reviewSessions.id, { onDelete: 'set null' }),
    round: integer('round').notNull(),
    kind: varchar('kind', { length: 12 }).$type<TClientFeedbackKind>().notNull(),
    name: varchar('name', { length: ReviewSessionLimits.clientName.max }).notNull(),
    text: text('text').notNull().default(''),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('client_feedback_task_idx').on(t.taskId, t.createdAt, t.id),
    check('client_feedback_kind_check', oneOf(t.kind, ClientFeedbackKinds)),
  ],
);

/**
 * Vector shapes drawn over a file at a time (video) or on an image, with a comment
 * (docs/review-sessions.md). Normalised coordinates; the PNG of it is a file of the comment.
 */
export const drawings = pgTable(
  'drawings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id')
      .notNull()
      .references(() => comments.id, { onDelete: 'cascade' }),
    attachmentId: integer('attachment_id')
      .notNull()
      .references(() => attachments.id, { onDelete: 'cascade' }),
    round: integer('round'),
    timeSeconds: doublePrecision('time_seconds'),
    frame: integer('frame'),
    shapes: jsonb('shapes').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('drawings_comment_idx').on(t.commentId), index('drawings_attachment_idx').on(t.attachmentId)],
);
