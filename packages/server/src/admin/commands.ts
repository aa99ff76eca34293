import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { schema, type Database, type Db } from '../db';
import { createStorage, type FileStorage } from '../features/attachments';
import { findUserByLogin, hashPassword, revokeUserSessions, SessionCache } from '../features/auth';
import { createWorkspace } from '../features/workspaces';
import { readJournalTags } from './migrations';
import { backup, appliedMigrations } from './backup';
import { restore, verify } from './restore';

/**
 * What `npm run admin -- <command>` does (docs/operations.md, "Admin commands"), run by the CLI on
 * a database it opened, or by a running server on its own when the CLI cannot open it (the
 * embedded database of a running server; `route.ts`). Each answers the lines it prints.
 */
export const AdminCommands = {
  backup: 'backup FILE — write the whole instance (database and files) to one archive',
  verify: 'verify FILE — check an archive against its checksums',
  restore: 'restore FILE — restore an archive into an empty data directory or database (server stopped)',
  'migrate-status': 'migrate-status — the migrations applied and those waiting',
  'create-admin':
    'create-admin EMAIL [USERNAME] — a verified account that owns a new workspace; the password is printed once',
  'reset-2fa': 'reset-2fa USER — turn off the second sign-in step of USER (username or e-mail)',
  'revoke-sessions': 'revoke-sessions USER — sign USER out everywhere',
} as const;
export type AdminCommand = keyof typeof AdminCommands;

export class UsageError extends Error {}

export type AdminContext = {
  /** None for `verify`, which reads only the archive. */
  database?: Database;
  s3Url: string | undefined;
  /** The running server's session cache (so a revoked session is forgotten at once); the CLI has its own. */
  sessionCache?: SessionCache;
  /** Whether the command runs inside a running server (restore is refused there). */
  inServer?: boolean;
};

const storageOf =
  (s3Url: string | undefined) =>
  (db: Db): FileStorage =>
    createStorage({ db, s3Url });

function one(args: string[], what: string): string {
  const [value] = args;
  if (!value) throw new UsageError(`Name ${what}.`);
  return value;
}

async function userOf(db: Db, login: string) {
  const user = await findUserByLogin(db, login);
  if (!user) throw new UsageError(`No user has the username or e-mail ${login}.`);
  return user;
}

export async function runAdminCommand(ctx: AdminContext, name: string, args: string[]): Promise<string[]> {
  const database = ctx.database!;
  const db = ctx.database?.db as Db;
  switch (name as AdminCommand) {
    case 'backup': {
      const { manifest } = await backup(database, storageOf(ctx.s3Url), one(args, 'the archive to write'));
      return [
        `Backed up ${manifest.tables} tables (${manifest.rows} rows) and ${manifest.files} files (${manifest.fileBytes} bytes) to ${args[0]}.`,
      ];
    }
    case 'verify': {
      const { header, manifest } = await verify(one(args, 'the archive to check'));
      return [
        `${args[0]} is whole: Stageline ${header.app}, ${header.migrations.count} migrations, written ${header.createdAt}.`,
        `${manifest.tables} tables (${manifest.rows} rows), ${manifest.files} files (${manifest.fileBytes} bytes); every checksum matches.`,
      ];
    }
    case 'restore': {
      if (ctx.inServer)
        throw new UsageError('Stop the server first: a restore goes into an empty data directory or database.');
      const { manifest } = await restore(database, storageOf(ctx.s3Url), one(args, 'the archive to restore'));
      return [
        `Restored ${manifest.tables} tables (${manifest.rows} rows) and ${manifest.files} files from ${args[0]}.`,
      ];
    }
    case 'migrate-status': {
      const applied = await appliedMigrations(db);
      const tags = await readJournalTags();
      const waiting = tags.slice(applied.count);
      return [
        `${applied.count} of ${tags.length} migrations applied${applied.count > 0 ? ` (the last: ${tags[applied.count - 1] ?? '?'})` : ''}.`,
        waiting.length === 0
          ? 'None waiting.'
          : `Waiting (the server applies them when it starts): ${waiting.join(', ')}.`,
      ];
    }
    case 'create-admin': {
      const email = one(args, 'an e-mail address');
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new UsageError(`${email} is not an e-mail address.`);
      const username =
        (args[1] ??
          email
            .split('@')[0]!
            .replace(/[^a-zA-Z0-9_.-]/g, '')
            .slice(0, 30)) ||
        'admin';
      if (await findUserByLogin(db, email)) throw new UsageError(`${email} already has an account.`);
      if (await findUserByLogin(db, username)) throw new UsageError(`The username ${username} is taken; give another.`);
      const password = randomBytes(12).toString('base64url');
      const passwordHash = await hashPassword(password);
      const [user] = await db
        .insert(schema.users)
        .values({ email, username, passwordHash, emailVerified: true })
        .returning({ id: schema.users.id });
      const { id: workspace } = await createWorkspace(db, { userId: user!.id, input: { name: 'Studio' } });
      return [
        `Created ${username} <${email}>, owner of the workspace "Studio" (id ${workspace}).`,
        `Password (shown once; change it after signing in): ${password}`,
      ];
    }
    case 'reset-2fa': {
      const user = await userOf(db, one(args, 'a user'));
      await db.update(schema.users).set({ twoFactor: false }).where(eq(schema.users.id, user.id));
      return [`The second sign-in step of ${user.username} is off; they sign in with their password alone.`];
    }
    case 'revoke-sessions': {
      const user = await userOf(db, one(args, 'a user'));
      const ended = await revokeUserSessions(
        { db, sessionCache: ctx.sessionCache ?? new SessionCache() },
        { userId: user.id },
      );
      return [`Signed ${user.username} out of ${ended} session${ended === 1 ? '' : 's'}.`];
    }
    default:
      throw new UsageError(`There is no command ${name}.`);
  }
}
