import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, rowsOf, type Database, type Db } from '../db';
import { createStorage } from '../features/attachments';
import { relaxedLimits } from '../../test/accounts';
import { allowAllFileTypes, attach, fileScene, randomStream } from '../../test/files';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { act, ok } from '../../test/units';
import { as, buildTeam } from '../../test/workspaces';
import type { Manifest } from './archive';
import { backup } from './backup';
import { orderOf, quoted, readCatalog } from './catalog';
import { restore, verify } from './restore';

/**
 * Backup and restore (docs/operations.md, "Backup and restore"): an instance with people, a
 * pipeline, units, tasks through a review, comments, time and files is backed up, restored into a
 * new embedded database, and every table's rows and every file's bytes compared; damaged, foreign
 * and newer archives and a non-empty target are refused with nothing written.
 */

let t: TestApp;
let dir: string;
let archive: string;
const storageOf = (db: Db) => createStorage({ db, s3Url: undefined });

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
  dir = await mkdtemp(path.join(tmpdir(), 'stageline-backup-test-'));
  archive = path.join(dir, 'backup.tar.gz');
  const team = await buildTeam(t);
  const scene = await fileScene(t, team);
  await allowAllFileTypes(t, team);
  ok(await act(t, team.member, scene.task, 'start'));
  await attach(t, team.member, { task: scene.task }, { name: 'plate.bin', data: randomStream(3 * 1024 * 1024 + 17) });
  await attach(
    t,
    team.member,
    { task: scene.task },
    { name: 'notes.txt', type: 'text/plain', data: Buffer.from('hello') },
  );
  ok(await act(t, team.member, scene.task, 'submit'));
  const comment = await as(t, team.guest)('POST', '/api/comments/', { task: scene.task, text: 'Looks **good**' });
  expect(comment.statusCode, comment.body).toBe(201);
}, 180_000);
afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Every table's rows as text in key order, and every stored file's bytes by chunk. */
async function contents(db: Db): Promise<Record<string, string[]>> {
  const all: Record<string, string[]> = {};
  for (const table of await readCatalog(db)) {
    const rows = await rowsOf<{ j: string }>(
      db,
      table.name === 'file_chunks'
        ? sql`select key || ':' || seq || ':' || md5(data) as j from file_chunks order by key, seq`
        : sql.raw(`select row_to_json(t)::text as j from ${quoted(table.name)} t${orderOf(table)}`),
    );
    all[table.name] = rows.map((row) => row.j);
  }
  return all;
}

async function emptyTarget(name: string): Promise<Database> {
  return openDatabase({ dataDir: path.join(dir, name), migrate: false });
}

/**
 * Rewrites the archive entry by entry, changing those `change` answers a new body for (null drops
 * one); with `resign`, the manifest is made to agree with the changes, as a forger would.
 */
async function rewrite(
  from: string,
  to: string,
  change: (name: string, body: Buffer) => Buffer | undefined | null,
  resign = false,
) {
  const changed = new Map<string, Buffer>();
  const extract = tar.extract();
  const pack = tar.pack();
  const writing = pipeline(pack, createGzip(), createWriteStream(to));
  const reading = (async () => {
    for await (const entry of extract) {
      const pieces: Buffer[] = [];
      for await (const piece of entry) pieces.push(piece as Buffer);
      let body = change(entry.header.name, Buffer.concat(pieces));
      if (body === null) continue;
      if (body) changed.set(entry.header.name, body);
      if (resign && entry.header.name === 'manifest.json') {
        const manifest = JSON.parse(Buffer.concat(pieces).toString()) as Manifest;
        for (const item of manifest.entries) {
          const now = changed.get(item.name);
          if (now) Object.assign(item, { bytes: now.length, sha256: createHash('sha256').update(now).digest('hex') });
        }
        body = Buffer.from(JSON.stringify(manifest));
      }
      pack.entry(
        { name: entry.header.name, size: (body ?? Buffer.concat(pieces)).length },
        body ?? Buffer.concat(pieces),
      );
    }
    pack.finalize();
  })();
  await Promise.all([pipeline(createReadStream(from), createGunzip(), extract), reading, writing]);
}

describe('backup and restore', () => {
  test('a round trip gives back every row of every table and every file, byte for byte', async () => {
    const { manifest, header } = await backup(t.database, storageOf, archive);
    expect(header.migrations.count).toBeGreaterThan(10);
    expect(manifest.files).toBe(2);
    expect(manifest.fileBytes).toBe(3 * 1024 * 1024 + 17 + 5);
    expect(manifest.rows).toBeGreaterThan(20);
    expect((await verify(archive)).manifest.entries).toHaveLength(manifest.entries.length);

    const target = await emptyTarget('restored');
    try {
      await restore(target, storageOf, archive);
      const [before, after] = [await contents(t.database.db), await contents(target.db)];
      expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
      for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
      expect(after.file_chunks!.length).toBeGreaterThanOrEqual(4);
      // Identities go on after the restored ids: a new row does not collide.
      const [next] = await rowsOf<{ id: number }>(
        target.db,
        sql`insert into projects (workspace_id, name) select workspace_id, 'After' from projects limit 1 returning id`,
      );
      const [max] = await rowsOf<{ id: number }>(t.database.db, sql`select max(id) as id from projects`);
      expect(Number(next!.id)).toBeGreaterThan(Number(max!.id));
    } finally {
      await target.close();
    }
  }, 240_000);

  test('damaged, altered, foreign and newer archives, and a target with data, are refused', async () => {
    if (!(await stat(archive).catch(() => null))) await backup(t.database, storageOf, archive);
    const cut = path.join(dir, 'cut.tar.gz');
    const bytes = await readFile(archive);
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await expect(verify(cut)).rejects.toThrow('The archive is cut short or damaged');

    const altered = path.join(dir, 'altered.tar.gz');
    await rewrite(archive, altered, (name, body) =>
      name === 'db/projects.ndjson' ? Buffer.from(body.toString().replace('"name":"', '"name":"X')) : undefined,
    );
    await expect(verify(altered)).rejects.toThrow('db/projects.ndjson does not match its checksum');

    const missing = path.join(dir, 'missing.tar.gz');
    await rewrite(archive, missing, (name) => (name.startsWith('files/') ? null : undefined));
    await expect(verify(missing)).rejects.toThrow(/The archive lacks files\//);

    // A header changed without the manifest is caught by its checksum; a consistent archive from a
    // newer version (more migrations than this one knows) is refused before anything is written.
    const newerHeader = (name: string, body: Buffer) => {
      if (name !== 'header.json') return undefined;
      const header = JSON.parse(body.toString()) as { migrations: { count: number } };
      header.migrations.count = 999;
      return Buffer.from(JSON.stringify(header));
    };
    const forged = path.join(dir, 'forged.tar.gz');
    await rewrite(archive, forged, newerHeader);
    await expect(verify(forged)).rejects.toThrow('header.json does not match its checksum');
    const newer = path.join(dir, 'newer.tar.gz');
    await rewrite(archive, newer, newerHeader, true);
    await verify(newer);
    const fresh = await emptyTarget('newer');
    try {
      await expect(restore(fresh, storageOf, newer)).rejects.toThrow(/This backup comes from a newer Stageline/);
      const [tables] = await rowsOf<{ n: number }>(
        fresh.db,
        sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
      );
      expect(Number(tables!.n)).toBe(0);
    } finally {
      await fresh.close();
    }

    const foreign = path.join(dir, 'foreign.tar.gz');
    await rewrite(archive, foreign, (name, body) =>
      name === 'header.json' ? Buffer.from(body.toString().replace('stageline-backup', 'other-tool')) : undefined,
    );
    await expect(verify(foreign)).rejects.toThrow('This is not a Stageline backup');

    // A target with data: nothing is written to it.
    const before = await contents(t.database.db);
    await expect(restore(t.database, storageOf, archive)).rejects.toThrow('The target is not empty');
    expect(await contents(t.database.db)).toEqual(before);

    // A failed restore leaves an empty target empty, ready for the next try.
    const target = await emptyTarget('after-refusal');
    try {
      await expect(restore(target, storageOf, altered)).rejects.toThrow('does not match its checksum');
      const [users] = await rowsOf<{ n: number }>(
        target.db,
        sql`select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
      );
      expect(Number(users!.n)).toBe(0);
      await restore(target, storageOf, archive);
    } finally {
      await target.close();
    }
  }, 240_000);
});
