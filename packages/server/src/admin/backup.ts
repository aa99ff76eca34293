import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { sql } from 'drizzle-orm';
import { rowsOf, type Database, type Db } from '../db';
import type { FileStorage } from '../features/attachments';
import { version } from '../version';
import { archiveWriter, ArchiveFormat, ArchiveVersion, type ArchiveHeader, type Manifest } from './archive';
import { notDumped, orderOf, quoted, readCatalog } from './catalog';

/** Rows fetched from a table's cursor at a time: a few MB at most, whatever the table's size. */
const fetchRows = 2000;

/** The migrations applied to `db` (drizzle's own table), by count and the last one's creation time. */
export async function appliedMigrations(db: Db): Promise<{ count: number; last: string | null }> {
  const [exists] = await rowsOf<{ ok: boolean }>(
    db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as ok`,
  );
  if (!exists?.ok) return { count: 0, last: null };
  const [row] = await rowsOf<{ count: number; last: string | null }>(
    db,
    sql`select count(*)::int as count, max(created_at)::text as last from drizzle.__drizzle_migrations`,
  );
  return { count: Number(row?.count ?? 0), last: row?.last ?? null };
}

/**
 * Writes a backup of the whole instance to `path` (docs/operations.md, "Backup and restore"): every
 * table's rows, read in one repeatable-read transaction so they agree with each other, and the
 * bytes of every completed file the snapshot names. Streams throughout.
 */
export async function backup(
  database: Database,
  storageOf: (db: Db) => FileStorage,
  file: string,
): Promise<{ header: ArchiveHeader; manifest: Manifest }> {
  const writer = archiveWriter(file);
  const scratch = await mkdtemp(path.join(tmpdir(), 'stageline-backup-'));
  try {
    return await database.db.transaction(async (tx) => {
      await tx.execute(sql`set transaction isolation level repeatable read, read only`);
      const header: ArchiveHeader = {
        format: ArchiveFormat,
        version: ArchiveVersion,
        app: version,
        createdAt: new Date().toISOString(),
        source: database.kind,
        migrations: await appliedMigrations(tx),
      };
      await writer.addJson('header.json', header);
      let rows = 0;
      let tables = 0;
      for (const table of await readCatalog(tx)) {
        if (notDumped.has(table.name)) continue;
        // A table goes through a scratch file: tar needs an entry's size before its bytes.
        const spool = path.join(scratch, `${table.name}.ndjson`);
        const out = createWriteStream(spool);
        let count = 0;
        await tx.execute(
          sql.raw(
            `declare dump no scroll cursor for select row_to_json(t)::text as j from ${quoted(table.name)} t${orderOf(table)}`,
          ),
        );
        for (;;) {
          const batch = await rowsOf<{ j: string }>(tx, sql.raw(`fetch ${fetchRows} from dump`));
          if (batch.length > 0 && !out.write(`${batch.map((row) => row.j).join('\n')}\n`))
            await new Promise<void>((resolve) => out.once('drain', () => resolve()));
          count += batch.length;
          if (batch.length < fetchRows) break;
        }
        await tx.execute(sql`close dump`);
        out.end();
        await finished(out);
        await writer.add(`db/${table.name}.ndjson`, (await stat(spool)).size, createReadStream(spool), count);
        await rm(spool);
        rows += count;
        tables += 1;
      }
      const files = await rowsOf<{ key: string; size: number }>(
        tx,
        sql`select storage_key as key, max(size)::bigint as size from attachments
          where completed_at is not null group by storage_key order by storage_key`,
      );
      let fileBytes = 0;
      // The snapshot's own handle: on the embedded database, statements outside the transaction
      // would wait for it to end.
      const storage = storageOf(tx);
      for (const file of files) {
        const size = Number(file.size);
        await writer.add(`files/${file.key}`, size, await storage.get(file.key));
        fileBytes += size;
      }
      const manifest = await writer.finish({ tables, rows, files: files.length, fileBytes });
      return { header, manifest };
    });
  } catch (error) {
    writer.abort(error as Error);
    throw error;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
