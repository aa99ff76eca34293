import { sql } from 'drizzle-orm';
import type { THistoryField } from '@stageline/shared';
import { NotifyChannel, type Db } from '../../db';

/**
 * One changed field of a unit or a task: `field` is one of `HistoryFields`, or `field:<key>` for a
 * custom field (issue 35, item 1: its writes call `recordHistory` with such names).
 */
export type HistoryChange = {
  /** The unit, or (for a task's change) null to have it read from the task. */
  unitId: number | null;
  /** null or absent for a change of the unit itself. */
  taskId?: number | null;
  field: THistoryField | `field:${string}`;
  old: unknown;
  new: unknown;
};

/**
 * Writes changes to the history of units and tasks with `db` — pass the transaction of the change,
 * so history is written exactly when the change commits — and, in the same statement, one live
 * `history` event per unit (`{unit, tasks}`) for the timelines open on it (docs/history-and-audit.md).
 * One statement whatever the number of changes; none when there are none.
 */
export async function recordHistory(
  db: Db,
  { workspaceId, actorId, changes }: { workspaceId: number; actorId: number | null; changes: HistoryChange[] },
): Promise<void> {
  if (changes.length === 0) return;
  const rows = JSON.stringify(
    changes.map((change) => ({
      unit_id: change.unitId,
      task_id: change.taskId ?? null,
      field: change.field,
      old_value: change.old ?? null,
      new_value: change.new ?? null,
    })),
  );
  await db.execute(sql`
    with written as (
      insert into record_history (workspace_id, unit_id, task_id, actor_id, field, old_value, new_value)
      select ${workspaceId}::integer, coalesce(x.unit_id, (select t.unit_id from tasks t where t.id = x.task_id)),
        x.task_id, ${actorId}::integer, x.field, x.old_value, x.new_value
      from jsonb_to_recordset(${rows}::jsonb)
        as x(unit_id integer, task_id integer, field text, old_value jsonb, new_value jsonb)
      returning unit_id, task_id),
    live as (
      insert into events (workspace_id, type, payload)
      select ${workspaceId}::integer, 'history', jsonb_build_object('unit', unit_id,
        'tasks', coalesce(jsonb_agg(distinct task_id) filter (where task_id is not null), '[]'::jsonb))
      from written group by unit_id
      returning id)
    select pg_notify(${NotifyChannel}, id::text) from live`);
}
