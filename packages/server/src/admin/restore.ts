import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { sql } from 'drizzle-orm';
import { migrateDatabase, rowsOf, type Database, type Db } from '../db';
import type { FileStorage } from '../features/attachments';
import { migrationsDir } from '../package-paths';
import { ArchiveError, readArchive, type ArchiveHeader, type Manifest } from './archive';
import { appliedMigrations } from './backup';
import { quoted, readCatalog, type TableInfo } from './catalog';
import { readJournal } from './migrations';

/** Rows inserted per statement: one JSON parameter of a few hundred kB. */
const insertRows = 500;

/** Checks an archive whole (every entry against the manifest's checksum) without writing anything. */
export async function verify(file: string): Promise<{ header: ArchiveHeader; manifest: Manifest }> {
  return readArchive(file, {});
}

/**
 * Restores the archive at `file` into an empty database and storage (docs/operations.md, "Backup
 * and restore"). The archive is first read whole and checked; the schema is built up to the
 * archive's migrations, every table is loaded in one transaction with the tables' own triggers off
 * (the rows already hold what they computed), identities are moved past the largest ids, the
 * remaining migrations of this version run, and the files are stored last. Anything refused
 * leaves the target as it was: empty.
 */
export async function restore(
  database: Database,
  storageOf: (db: Db) => FileStorage,
  file: string,
): Promise<{ header: ArchiveHeader; manifest: Manifest }> {
  const { header } = await verify(file);
  const journal = await readJournal(migrationsDir);
  if (header.migrations.count > journal.entries.length)
    throw new ArchiveError(
      `This backup comes from a newer Stageline (${header.app}, ${header.migrations.count} migrations); ` +
        `this version knows ${journal.entries.length}. Restore it with that version or a later one.`,
    );
  await refuseUnlessEmpty(database.db);
  const target = await appliedMigrations(database.db);
  if (target.count > header.migrations.count)
    throw new ArchiveError(
      `The target database already has a newer schema (${target.count} migrations, the backup ${header.migrations.count}). ` +
        'Restore into a new data directory or a new database: the server migrates it after the restore.',
    );

  // The schema as the archive's rows expect it: its migrations only, the rest after the load.
  const partial = await mkdtemp(path.join(tmpdir(), 'stageline-migrations-'));
  try {
    await cp(migrationsDir, partial, { recursive: true });
    await writeFile(
      path.join(partial, 'meta', '_journal.json'),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, header.migrations.count) }),
    );
    await migrateDatabase(database, partial);
  } finally {
    await rm(partial, { recursive: true, force: true });
  }

  const stored: string[] = [];
  let storage: FileStorage | undefined;
  try {
    const result = await database.db.transaction(async (tx) => {
      const tables = new Map((await readCatalog(tx)).map((table) => [table.name, table]));
      for (const table of tables.values())
        await tx.execute(sql.raw(`alter table ${quoted(table.name)} disable trigger user`));
      const deferred: { table: TableInfo; rows: unknown[] }[] = [];
      storage = storageOf(tx);
      const read = await readArchive(file, {
        onEntry: async ({ name, bytes, body }) => {
          if (name.startsWith('files/')) {
            const key = name.slice('files/'.length);
            stored.push(key);
            const size = await storage!.put(key, body);
            if (size !== bytes) throw new ArchiveError(`${name}: stored ${size} of ${bytes} bytes`);
            return;
          }
          const match = /^db\/(.+)\.ndjson$/.exec(name);
          const table = match ? tables.get(match[1]!) : undefined;
          if (!table) throw new ArchiveError(`The archive holds ${name}, which is no table of this database.`);
          const later: unknown[] = [];
          let batch: string[] = [];
          for await (const line of createInterface({ input: body, crlfDelay: Infinity })) {
            if (!line) continue;
            batch.push(line);
            if (table.deferred.length > 0) later.push(JSON.parse(line));
            if (batch.length === insertRows) {
              await insertBatch(tx, table, batch);
              batch = [];
            }
          }
          if (batch.length > 0) await insertBatch(tx, table, batch);
          if (later.length > 0) deferred.push({ table, rows: later });
        },
      });
      for (const { table, rows } of deferred) await setDeferred(tx, table, rows);
      for (const table of tables.values()) {
        for (const column of table.identity)
          await tx.execute(
            sql.raw(`select setval(pg_get_serial_sequence('${quoted(table.name)}', '${column}'),
              coalesce((select max(${quoted(column)}) from ${quoted(table.name)}), 0) + 1, false)`),
          );
        await tx.execute(sql.raw(`alter table ${quoted(table.name)} enable trigger user`));
      }
      return read;
    });
    await migrateDatabase(database, migrationsDir);
    return result;
  } catch (error) {
    // Files in S3 were stored outside the transaction; the database's went with it.
    if (storage?.kind === 's3') for (const key of stored) await storage.delete(key).catch(() => undefined);
    throw error;
  }
}

async function insertBatch(tx: Db, table: TableInfo, lines: string[]): Promise<void> {
  const columns = table.columns.map(quoted);
  const values = table.columns.map((column) => (table.deferred.includes(column) ? 'null' : `j.${quoted(column)}`));
  const overriding = table.identity.length > 0 ? ' overriding system value' : '';
  await tx.execute(
    sql`${sql.raw(`insert into ${quoted(table.name)} (${columns.join(', ')})${overriding} select ${values.join(', ')}
      from json_populate_recordset(null::${quoted(table.name)}, `)}${`[${lines.join(',')}]`}::json${sql.raw(') j')}`,
  );
}

/** Sets the columns loaded as null (a cycle of foreign keys) now that every row they point to is in. */
async function setDeferred(tx: Db, table: TableInfo, rows: unknown[]): Promise<void> {
  const set = table.deferred.map((column) => `${quoted(column)} = j.${quoted(column)}`).join(', ');
  const match = table.primaryKey.map((column) => `t.${quoted(column)} = j.${quoted(column)}`).join(' and ');
  for (let i = 0; i < rows.length; i += insertRows) {
    await tx.execute(
      sql`${sql.raw(`update ${quoted(table.name)} t set ${set} from json_populate_recordset(null::${quoted(table.name)}, `)}${JSON.stringify(rows.slice(i, i + insertRows))}::json${sql.raw(`) j where ${match}`)}`,
    );
  }
}

/** A restore goes into nothing: any row in any table (migrations aside) is a refusal. */
async function refuseUnlessEmpty(db: Db): Promise<void> {
  const { count } = await appliedMigrations(db);
  if (count === 0) return;
  for (const table of await readCatalog(db)) {
    const [row] = await rowsOf<{ any: boolean }>(
      db,
      sql.raw(`select exists (select 1 from ${quoted(table.name)}) as any`),
    );
    if (row?.any)
      throw new ArchiveError(
        `The target is not empty (${table.name} has rows). Restore into a new data directory or an empty database.`,
      );
  }
}
