import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db';

/**
 * What a backup needs to know of the database's tables (docs/operations.md, "Backup and restore"):
 * each table of the `public` schema with its columns (generated ones left out: the database makes
 * them), its primary key, its identity columns, and an order in which rows can be inserted without
 * breaking a foreign key. A cycle of foreign keys (a user's current workspace, a workspace's owner)
 * is broken at a nullable column, whose values are written after every table is loaded.
 */
export type TableInfo = {
  name: string;
  columns: string[];
  primaryKey: string[];
  identity: string[];
  /** Foreign-key columns loaded as null, then set once every table is in (a cycle's closing edge). */
  deferred: string[];
};

/** Tables whose rows are not the instance's data: the bytes of files travel as files of the archive. */
export const notDumped = new Set(['file_chunks']);

type ColumnRow = { table: string; column: string; not_null: boolean; identity: string; generated: string };
type KeyRow = { table: string; columns: string[] };
type ForeignKeyRow = { table: string; target: string; columns: string[] };

const textArray = (value: unknown): string[] =>
  Array.isArray(value)
    ? (value as string[])
    : String(value)
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean)
        .map((name) => name.replace(/^"|"$/g, ''));

export async function readCatalog(db: Db): Promise<TableInfo[]> {
  const columns = await rowsOf<ColumnRow>(
    db,
    sql`select c.relname as table, a.attname as column, a.attnotnull as not_null,
        a.attidentity as identity, a.attgenerated as generated
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`,
  );
  const keys = await rowsOf<KeyRow>(
    db,
    sql`select c.relname as table,
        array(select a.attname from unnest(i.indkey) with ordinality k(n, o)
          join pg_attribute a on a.attrelid = c.oid and a.attnum = k.n order by k.o)::text[] as columns
      from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and i.indisprimary`,
  );
  const foreignKeys = await rowsOf<ForeignKeyRow>(
    db,
    sql`select c.relname as table, t.relname as target,
        array(select a.attname from unnest(f.conkey) k(n) join pg_attribute a on a.attrelid = c.oid and a.attnum = k.n)::text[] as columns
      from pg_constraint f join pg_class c on c.oid = f.conrelid join pg_class t on t.oid = f.confrelid
        join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and f.contype = 'f'`,
  );

  const tables = new Map<string, TableInfo>();
  const notNull = new Map<string, Set<string>>();
  for (const row of columns) {
    const table = tables.get(row.table) ?? { name: row.table, columns: [], primaryKey: [], identity: [], deferred: [] };
    tables.set(row.table, table);
    if (row.generated) continue;
    table.columns.push(row.column);
    if (row.identity) table.identity.push(row.column);
    if (row.not_null) notNull.set(row.table, (notNull.get(row.table) ?? new Set()).add(row.column));
  }
  for (const key of keys) {
    const table = tables.get(key.table);
    if (table) table.primaryKey = textArray(key.columns);
  }
  const dependsOn = new Map<string, { target: string; columns: string[] }[]>();
  for (const fk of foreignKeys) {
    if (fk.table === fk.target) continue; // rows are written in key order: a parent comes first
    dependsOn.set(fk.table, [
      ...(dependsOn.get(fk.table) ?? []),
      { target: fk.target, columns: textArray(fk.columns) },
    ]);
  }

  // Foreign keys inside a cycle (tables that reach each other) are loaded later where nullable;
  // what remains has no cycle, and a table comes after the tables it points to.
  const reach = (from: string) => {
    const seen = new Set<string>();
    const walk = (name: string) => {
      for (const edge of dependsOn.get(name) ?? [])
        if (!seen.has(edge.target)) {
          seen.add(edge.target);
          walk(edge.target);
        }
    };
    walk(from);
    return seen;
  };
  const reaches = new Map([...tables.keys()].map((name) => [name, reach(name)]));
  for (const [name, edges] of dependsOn) {
    const table = tables.get(name)!;
    const kept = edges.filter((edge) => {
      if (!reaches.get(edge.target)?.has(name)) return true;
      if (edge.columns.some((column) => notNull.get(name)?.has(column))) return true;
      table.deferred.push(...edge.columns.filter((column) => !table.deferred.includes(column)));
      return false;
    });
    dependsOn.set(name, kept);
  }
  const order: TableInfo[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    state.set(name, 'visiting');
    for (const edge of (dependsOn.get(name) ?? []).sort((a, b) => a.target.localeCompare(b.target))) {
      const seen = state.get(edge.target);
      if (seen === 'visiting')
        throw new Error(`Foreign keys form a cycle through ${name}.${edge.columns.join(', ')}, which cannot be null`);
      if (seen === undefined && tables.has(edge.target)) visit(edge.target);
    }
    state.set(name, 'done');
    order.push(tables.get(name)!);
  };
  for (const name of [...tables.keys()].sort()) if (!state.has(name)) visit(name);
  return order;
}

export const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
/** `order by` the primary key, so parents come before children of a self-reference (ids grow). */
export const orderOf = (table: TableInfo) =>
  table.primaryKey.length > 0 ? ` order by ${table.primaryKey.map(quoted).join(', ')}` : '';
