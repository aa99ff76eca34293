import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'stageline-lock-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const lockFile = () => path.join(dir, '.lock');
const holder = (pid: number, host = os.hostname()) =>
  JSON.stringify({ pid, host, token: 'someone-else', startedAt: new Date().toISOString() });

/** A process that stays alive until killed, and its pid. */
function sleeper() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  return child;
}

describe('the data directory lock', () => {
  test('a live process on this machine keeps it', async () => {
    const other = sleeper();
    try {
      await writeFile(lockFile(), holder(other.pid!));
      await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    } finally {
      other.kill('SIGKILL');
    }
  });

  test("a dead process's lock is taken over at once, and says why", async () => {
    const other = sleeper();
    const pid = other.pid!;
    other.kill('SIGKILL');
    await new Promise((resolve) => other.once('exit', resolve));
    await writeFile(lockFile(), holder(pid));
    const reasons: string[] = [];
    const lock = await lockDataDir(dir, { onTakeover: (reason) => reasons.push(reason) });
    expect(reasons).toEqual([`process ${pid} is gone`]);
    expect(JSON.parse(await readFile(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  test('a killed process not yet reaped (a zombie) counts as gone', async () => {
    // A parent that forks a child, SIGKILLs it and never waits for it: the child stays a zombie.
    const script =
      'import os, sys, time\npid = os.fork()\nif pid == 0:\n    time.sleep(30)\n    os._exit(0)\n' +
      'os.kill(pid, 9)\nprint(pid, flush=True)\ntime.sleep(30)';
    const shell = spawn('python3', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const pid = Number(
        await new Promise<string>((resolve) => shell.stdout.once('data', (chunk: Buffer) => resolve(String(chunk)))),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]![0]).toBe('Z');
      await writeFile(lockFile(), holder(pid));
      const lock = await lockDataDir(dir);
      await lock.release();
    } finally {
      shell.kill('SIGKILL');
    }
  });

  test('a lock naming our own pid is from an earlier life of this pid', async () => {
    await writeFile(lockFile(), holder(process.pid));
    const lock = await lockDataDir(dir);
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    await lock.release();
  });

  test('from another host only the age tells: fresh is kept, stale is taken', async () => {
    await writeFile(lockFile(), holder(1, 'another-host'));
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    const old = new Date(Date.now() - 60_000);
    await utimes(lockFile(), old, old);
    const lock = await lockDataDir(dir);
    await lock.release();
  });

  test('two takers at once: exactly one wins', async () => {
    await writeFile(lockFile(), holder(1, 'another-host'));
    const old = new Date(Date.now() - 60_000);
    await utimes(lockFile(), old, old);
    const results = await Promise.allSettled([lockDataDir(dir), lockDataDir(dir), lockDataDir(dir)]);
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(DataDirLockedError);
    }
    await (won[0] as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release();
  });
});
