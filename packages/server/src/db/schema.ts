import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { Limits } from '@stageline/shared';

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
    recentWorkspaceId: integer('recent_workspace_id'),
    notifyBrowser: boolean('notify_browser').notNull().default(true),
    emailFrequency: varchar('email_frequency', { length: 16 }).notNull().default('daily'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt),
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

/** E-mailed one-time codes (domain.md §8), stored as keyed hashes. */
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

/** Secrets generated once and shared by every process on the same database. */
export const appSecrets = pgTable('app_secrets', {
  name: varchar('name', { length: 64 }).primaryKey(),
  value: text('value').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});
