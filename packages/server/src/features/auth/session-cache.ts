/** The NOTIFY payload that tells every process a session ended (docs/security.md, "Tokens"). */
export const sessionEndedPrefix = 'session:';

export type SessionCacheOptions = {
  /** How long a "live" answer is trusted without a NOTIFY: the backstop if one were ever lost. */
  ttlMs?: number;
  /** Sessions remembered at most; the oldest entry goes first. */
  maxEntries?: number;
};

/**
 * Which sessions this app instance saw live lately, so a request with an access token need not ask
 * the database (docs/decisions.md, decision 99). One per app instance, never a module global.
 *
 * Every revocation NOTIFYs `session:<id>` in its own statement (`sessions.ts`), and the live-event
 * hub hands those payloads to `signal`; the revoking instance also forgets the session itself. While
 * the listening connection is down nothing is cached (a NOTIFY could be missed), and each (re)connect
 * starts empty. An answer read from the database while a revocation arrived is not stored
 * (`generation`), so a request racing a revoke cannot put the session back.
 */
export class SessionCache {
  private readonly entries = new Map<number, { userId: number; until: number }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private enabled = false;
  private generation = 0;

  constructor({ ttlMs = 30_000, maxEntries = 10_000 }: SessionCacheOptions = {}) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  /** Whether `sessionId` of `userId` was seen live and nothing has ended it since. */
  isLive(sessionId: number, userId: number, now = Date.now()): boolean {
    const entry = this.entries.get(sessionId);
    if (!entry) return false;
    if (entry.userId === userId && entry.until > now) return true;
    this.entries.delete(sessionId);
    return false;
  }

  /** A token for `remember`: taken before the database is asked. */
  snapshot(): number {
    return this.generation;
  }

  /** Remembers a session the database just answered live (until it expires, at most the TTL). */
  remember(snapshot: number, { sessionId, userId, expiresAt }: { sessionId: number; userId: number; expiresAt: Date }) {
    if (!this.enabled || snapshot !== this.generation) return;
    const until = Math.min(Date.now() + this.ttlMs, expiresAt.getTime());
    this.entries.delete(sessionId);
    this.entries.set(sessionId, { userId, until });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
  }

  /** Forgets ended sessions at once (the revoking instance, before its NOTIFY comes back). */
  forget(sessionIds: readonly number[]): void {
    this.generation += 1;
    for (const id of sessionIds) this.entries.delete(id);
  }

  /** A NOTIFY payload from the hub; anything but `session:<id>` is not ours and is ignored. */
  signal(payload: string): void {
    if (!payload.startsWith(sessionEndedPrefix)) return;
    const id = Number(payload.slice(sessionEndedPrefix.length));
    if (Number.isSafeInteger(id)) this.forget([id]);
    else this.clear();
  }

  /** The listening connection is up (caching from now on) or down (nothing cached until it is back). */
  listening(up: boolean): void {
    this.enabled = up;
    this.clear();
  }

  private clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  /** Entries held (for tests). */
  get size(): number {
    return this.entries.size;
  }
}
