import { sql, type SQL } from 'drizzle-orm';
import {
  CustomFieldHistoryPrefix,
  personName,
  ValueHistoryFields,
  type TRecordChange,
  type TRecordChangePage,
  type TRecordChangeQuery,
} from '@stageline/shared';
import { escapeLike, rowsOf, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { actorIn, authorize } from '../workspaces';

type Row = {
  id: string | number;
  unit_id: number;
  task_id: number | null;
  actor_id: number | null;
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  field: string;
  old_value: unknown;
  new_value: unknown;
  created_at: string | Date;
};

function present(row: Row): TRecordChange {
  return {
    id: Number(row.id),
    unit: row.unit_id,
    task: row.task_id,
    actor:
      row.actor_id === null || row.username === null
        ? null
        : {
            id: row.actor_id,
            username: row.username,
            name: personName({
              firstName: row.first_name ?? '',
              lastName: row.last_name ?? '',
              username: row.username,
            }),
          },
    field: row.field,
    old: row.old_value,
    new: row.new_value,
    created_at: new Date(row.created_at).toISOString(),
  };
}

const valueFields = sql.join(
  ValueHistoryFields.map((field) => sql`${field}`),
  sql`, `,
);

/** The "only status" and "only fields" filters (custom fields count as fields). */
function filterOf(only: TRecordChangeQuery['only']): SQL | undefined {
  if (only === 'status') return sql`h.field = 'status'`;
  if (only === 'fields') {
    return sql`(h.field in (${valueFields}) or h.field like ${`${escapeLike(CustomFieldHistoryPrefix)}%`})`;
  }
  return undefined;
}

/**
 * GET units/{id}/history/ and tasks/{id}/history/ (whoever sees the record): newest first, a page at
 * a time by keyset (`before` the last id seen), on the index `(unit_id, id)` or `(task_id, id)`. A
 * unit's history holds its tasks' changes too. 404 for a record outside the caller's workspaces.
 */
export async function listHistory(
  db: Db,
  { userId, of, query }: { userId: number; of: { unit: number } | { task: number }; query: TRecordChangeQuery },
): Promise<TRecordChangePage> {
  const [record] =
    'unit' in of
      ? await rowsOf<{ workspace_id: number }>(
          db,
          sql`select p.workspace_id from units u join projects p on p.id = u.project_id where u.id = ${of.unit}`,
        )
      : await rowsOf<{ workspace_id: number }>(
          db,
          sql`select p.workspace_id from tasks t join units u on u.id = t.unit_id join projects p on p.id = u.project_id
              where t.id = ${of.task}`,
        );
  if (!record) throw new AppError('not_found');
  authorize(await actorIn(db, userId, record.workspace_id), 'history', 'view');
  const conditions = [
    'unit' in of ? sql`h.unit_id = ${of.unit}` : sql`h.task_id = ${of.task}`,
    filterOf(query.only),
    query.before === undefined ? undefined : sql`h.id < ${query.before}`,
  ].filter((part): part is SQL => part !== undefined);
  const rows = await rowsOf<Row>(
    db,
    sql`select h.id, h.unit_id, h.task_id, h.actor_id, u.username, u.first_name, u.last_name, h.field,
          h.old_value, h.new_value, h.created_at
        from record_history h left join users u on u.id = h.actor_id
        where ${sql.join(conditions, sql` and `)}
        order by h.id desc limit ${query.limit + 1}`,
  );
  const page = rows.slice(0, query.limit).map(present);
  return { results: page, next: rows.length > query.limit ? page.at(-1)!.id : null };
}
