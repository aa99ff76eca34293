import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { Limits } from '@stageline/shared';

/**
 * The database schema, one `pgTable` definition for PGlite and PostgreSQL alike. Migrations in
 * `../../drizzle` are generated from it with `npm run db:generate` and checked in.
 */
const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

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
    avatar: text('avatar'),
    recentWorkspaceId: integer('recent_workspace_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_created_at_idx').on(t.createdAt),
  ],
);
