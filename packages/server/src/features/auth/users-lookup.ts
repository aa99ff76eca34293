import { and, eq, ne, sql } from 'drizzle-orm';
import { schema, type Db } from '../../db';
import { FieldError } from '../../http/errors';
import type { UserRow } from './context';

const { users } = schema;

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

/** A user by username or e-mail, case-insensitively (the login field accepts either). */
export async function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  const value = login.trim().toLowerCase();
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${value} or lower(${users.email}) = ${value}`)
    .limit(1);
  return user;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return user;
}

/**
 * Throws field errors for a username or e-mail another account already has (case-insensitive).
 * `exceptUserId` lets a user keep their own.
 */
export async function assertAvailable(
  db: Db,
  { username, email, exceptUserId }: { username?: string; email?: string; exceptUserId?: number },
): Promise<void> {
  const fields: Record<string, string[]> = {};
  const others = exceptUserId === undefined ? undefined : ne(users.id, exceptUserId);
  if (username !== undefined) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.username}) = ${username.toLowerCase()}`, others));
    if (taken) fields.username = ['A user with that username already exists.'];
  }
  if (email !== undefined) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, others));
    if (taken) fields.email = ['A user with that email already exists.'];
  }
  if (Object.keys(fields).length > 0) throw new FieldError(fields);
}

/** Whether an error is PostgreSQL's unique violation (a lost race against the checks above). */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
