import { sql, type SQL } from 'drizzle-orm';
import { AuditLimits, personName } from '@stageline/shared';
import {
  AuditActions,
  AuditTargetKinds,
  type TAuditEntry,
  type TAuditPage,
  type TAuditQuery,
} from '@stageline/shared/audit';
import { rowsOf, type Db } from '../../db';
import { FieldError } from '../../http/errors';
import { recordAudit } from '../audit';
import type { CsvExport } from '../csv';
import { authorizeIn } from '../workspaces';

type Row = {
  id: string | number;
  action: string;
  actor_id: number | null;
  actor_username: string | null;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  target_kind: string | null;
  target_id: number | null;
  target_name: string | null;
  ip: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
  created_at: string | Date;
};

const asAction = (value: string) => AuditActions.find((action) => action === value) ?? 'workspace.settings_changed';
const asKind = (value: string) => AuditTargetKinds.find((kind) => kind === value);

function presentEntry(row: Row): TAuditEntry {
  const username = row.username ?? row.actor_username;
  const kind = row.target_kind === null ? undefined : asKind(row.target_kind);
  return {
    id: Number(row.id),
    action: asAction(row.action),
    actor:
      row.actor_id === null || username === null
        ? null
        : {
            id: row.actor_id,
            username,
            name: personName({ firstName: row.first_name ?? '', lastName: row.last_name ?? '', username }),
          },
    target: kind ? { kind, id: row.target_id, name: row.target_name } : null,
    address: row.ip,
    user_agent: row.user_agent,
    details: row.details,
    created_at: new Date(row.created_at).toISOString(),
  };
}

type Filters = Omit<TAuditQuery, 'limit' | 'before'>;

/** The filters' conditions; `from` and `to` are whole UTC days, `to` included. */
function conditions(workspaceId: number, filters: Filters): SQL {
  if (filters.from && filters.to && filters.from > filters.to) {
    throw new FieldError({ to: ['The end date must not be before the start date.'] });
  }
  const parts = [sql`a.workspace_id = ${workspaceId}`];
  if (filters.actor !== undefined) parts.push(sql`a.actor_id = ${filters.actor}`);
  if (filters.action !== undefined) parts.push(sql`a.action = ${filters.action}`);
  if (filters.from) parts.push(sql`a.created_at >= ${filters.from}::date::timestamp at time zone 'UTC'`);
  if (filters.to) parts.push(sql`a.created_at < (${filters.to}::date + 1)::timestamp at time zone 'UTC'`);
  return sql.join(parts, sql` and `);
}

async function selectEntries(db: Db, where: SQL, limit: number): Promise<Row[]> {
  return rowsOf<Row>(
    db,
    sql`select a.id, a.action, a.actor_id, a.actor_username, u.first_name, u.last_name, u.username,
          a.target_kind, a.target_id, a.target_name, a.ip, a.user_agent, a.details, a.created_at
        from audit_log a left join users u on u.id = a.actor_id
        where ${where} order by a.id desc limit ${limit}`,
  );
}

/**
 * GET workspaces/{id}/audit/ (Admins and the Owner): newest first, a page at a time by keyset
 * (`before` the last id seen), so a page costs the same at any depth of a million entries.
 */
export async function listAudit(
  db: Db,
  { userId, workspaceId, query }: { userId: number; workspaceId: number; query: TAuditQuery },
): Promise<TAuditPage> {
  await authorizeIn(db, { userId, workspaceId, resource: 'audit', action: 'view' });
  let where = conditions(workspaceId, query);
  if (query.before !== undefined) where = sql`${where} and a.id < ${query.before}`;
  const rows = await selectEntries(db, where, query.limit + 1);
  const page = rows.slice(0, query.limit).map(presentEntry);
  return { results: page, next: rows.length > query.limit ? page.at(-1)!.id : null };
}

/**
 * GET workspaces/{id}/audit/export.csv: the filtered entries (at most `AuditLimits.exportRows`) as
 * CSV. The export is itself an entry, written before the file is made.
 */
export async function exportAudit(
  db: Db,
  { userId, workspaceId, filters }: { userId: number; workspaceId: number; filters: Filters },
): Promise<CsvExport> {
  await authorizeIn(db, { userId, workspaceId, resource: 'audit', action: 'view' });
  const where = conditions(workspaceId, filters);
  await recordAudit(db, workspaceId, {
    action: 'export.csv',
    actorId: userId,
    target: { kind: 'workspace', id: workspaceId },
    details: { what: 'audit_log', ...filters },
  });
  const rows = (await selectEntries(db, where, AuditLimits.exportRows)).map(presentEntry);
  return {
    filename: 'audit-log.csv',
    header: ['id', 'at', 'action', 'actor', 'target', 'target_id', 'target_name', 'address', 'user_agent', 'details'],
    rows: rows.map((entry) => [
      String(entry.id),
      entry.created_at,
      entry.action,
      entry.actor?.username ?? '',
      entry.target?.kind ?? '',
      entry.target?.id === null || entry.target === null ? '' : String(entry.target.id),
      entry.target?.name ?? '',
      entry.address ?? '',
      entry.user_agent ?? '',
      JSON.stringify(entry.details),
    ]),
  };
}

/**
 * The retention job (docs/history-and-audit.md): deletes each workspace's entries older than its
 * `audit_retention_days`, in one transaction that tells the append-only trigger it is the job.
 */
export async function pruneAuditLog(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local stageline.audit_retention = 'on'`);
    const deleted = await rowsOf<{ count: number }>(
      tx,
      sql`with gone as (
            delete from audit_log a using workspaces w
            where w.id = a.workspace_id and a.created_at < now() - make_interval(days => w.audit_retention_days)
            returning 1)
          select count(*)::int as count from gone`,
    );
    return deleted[0]?.count ?? 0;
  });
}
