import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, readFile, rename, rm, stat, unlink, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** How often the holder touches its lock file, and after how long an untouched one is stale. */
export const lockRefreshMs = 2_000;
export const lockStaleMs = 10_000;

/** What the lock file holds: who took it. */
type Holder = { pid: number; host: string; token: string; startedAt: string };

export class DataDirLockedError extends Error {
  constructor(dir: string, holder?: Holder) {
    super(
      `The data directory ${dir} is in use by another Stageline process${holder ? ` (pid ${holder.pid} on ${holder.host})` : ''}. ` +
        'One process may open an embedded database; to run several, set DATABASE_URL to a PostgreSQL server.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** Tokens of the locks this process wrote: a lock with our pid but not among them is from an earlier run. */
const ownTokens = new Set<string>();

/**
 * Whether process `pid` of this machine is running (signal 0 checks without sending anything). A
 * zombie — killed, not yet reaped by its parent — answers signal 0 too, so on Linux its state in
 * /proc decides.
 */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

async function readHolder(file: string): Promise<{ holder?: Holder; ageMs: number } | undefined> {
  try {
    const info = await stat(file);
    // Earlier versions locked with a directory of this name: only its age tells.
    if (info.isDirectory()) return { ageMs: Date.now() - info.mtimeMs };
    const text = await readFile(file, 'utf8');
    let holder: Holder | undefined;
    try {
      holder = JSON.parse(text) as Holder;
    } catch {
      holder = undefined;
    }
    return { holder, ageMs: Date.now() - info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Why a lock file no longer protects anything, or undefined while its holder may still be working.
 * On this machine the process id decides at once: after `kill -9` the holder is gone and a restart
 * must not wait for the lock to age (a supervisor with default limits gives up after ~10 s). A lock
 * naming our own pid is from an earlier life of this pid (containers reuse pid 1). From another
 * host (a shared volume), or unreadable, only its age tells.
 */
function staleReason(found: { holder?: Holder; ageMs: number }): string | undefined {
  const { holder, ageMs } = found;
  if (holder && holder.host === os.hostname()) {
    if (holder.pid === process.pid) {
      return ownTokens.has(holder.token) ? undefined : `it names this process id (${holder.pid}) from an earlier run`;
    }
    if (!processAlive(holder.pid)) return `process ${holder.pid} is gone`;
    if (ageMs > lockStaleMs) return `process ${holder.pid} has not refreshed it for ${Math.round(ageMs / 1000)} s`;
    return undefined;
  }
  return ageMs > lockStaleMs ? `it was not refreshed for ${Math.round(ageMs / 1000)} s` : undefined;
}

export type DataDirLock = { release(): Promise<void> };

/**
 * Takes `dir/.lock` for this process: PGlite does not lock its data directory, and a second process
 * on it would silently lose writes. The file names the holder (pid, host) and is touched every 2 s.
 * A lock whose holder is gone is taken over at once (`onTakeover` says why); a live one is a
 * `DataDirLockedError`. Created with O_EXCL and checked again after writing, so of two processes
 * starting together only one keeps it.
 */
export async function lockDataDir(
  dir: string,
  { onTakeover }: { onTakeover?: (reason: string) => void } = {},
): Promise<DataDirLock> {
  const file = path.join(dir, '.lock');
  const me: Holder = {
    pid: process.pid,
    host: os.hostname(),
    token: randomBytes(12).toString('hex'),
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx');
      ownTokens.add(me.token);
      await handle.writeFile(JSON.stringify(me));
      await handle.close();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const found = await readHolder(file);
      if (!found) continue;
      const reason = staleReason(found);
      if (!reason) throw new DataDirLockedError(dir, found.holder);
      // Move the stale file aside rather than unlinking it: if another process replaced it in the
      // meantime, its fresh lock is what we moved, and the check below sees it is not ours.
      const aside = `${file}.stale-${me.token}`;
      await rename(file, aside).catch(() => undefined);
      await rm(aside, { recursive: true, force: true });
      onTakeover?.(reason);
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const check = await readHolder(file);
    if (check?.holder?.token !== me.token) {
      ownTokens.delete(me.token);
      throw new DataDirLockedError(dir, check?.holder);
    }
    return holdLock(file, me);
  }
  throw new DataDirLockedError(dir);
}

function holdLock(file: string, me: Holder): DataDirLock {
  const timer = setInterval(() => {
    const now = new Date();
    utimes(file, now, now).catch(() => undefined);
  }, lockRefreshMs);
  timer.unref();
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(timer);
      ownTokens.delete(me.token);
      const found = await readHolder(file).catch(() => undefined);
      if (found?.holder?.token === me.token) await unlink(file).catch(() => undefined);
    },
  };
}
