import { hash, verify } from '@node-rs/argon2';

// @node-rs/argon2 hashes with argon2id by default (m=19456 KiB, t=2, p=1: OWASP's recommendation).

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. Without a hash (unknown user, OAuth-only account) it
 * still spends one verification, so the answer time does not tell whether the account exists.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hash('stageline-dummy-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
