import { sql } from 'drizzle-orm';
import { TaskStatuses, type TTaskCounters, type TTaskStatus } from '@stageline/shared';
import type { Db } from '../../db';
import { idList, overdueAt, rowsOf } from './sql';

/** Counters before any task: every status and overdue at zero. */
export function zeroCounters(): TTaskCounters {
  return { ...(Object.fromEntries(TaskStatuses.map((s) => [s, 0])) as Record<TTaskStatus, number>), overdue: 0 };
}

/**
 * `task_counters` (docs/rules.md §Tasks) of several pipelines or of every stage of them, in ONE aggregate
 * query: tasks per status plus the overdue ones (counted in their status too, as `taskCounters`
 * of `@stageline/shared` does), overdue computed with the same effective due date as everywhere.
 * Keys are pipeline ids or stage ids; a key with no task is absent.
 */
export async function countTasks(
  db: Db,
  { pipelineIds, by, now = new Date() }: { pipelineIds: number[]; by: 'pipeline' | 'stage'; now?: Date },
): Promise<Map<number, TTaskCounters>> {
  const result = new Map<number, TTaskCounters>();
  if (pipelineIds.length === 0) return result;
  const key = by === 'pipeline' ? sql.raw('t.pipeline_id') : sql.raw('t.stage_id');
  const ids = idList(pipelineIds);
  const rows = await rowsOf<{ key: number; status: TTaskStatus; n: number; overdue: number }>(
    db,
    sql`
    select ${key} as key, t.status, count(*)::int as n, count(*) filter (where ${overdueAt(now)})::int as overdue
    from tasks t
    where t.pipeline_id in (${ids})
    group by ${key}, t.status`,
  );
  for (const row of rows) {
    let counters = result.get(row.key);
    if (!counters) result.set(row.key, (counters = zeroCounters()));
    counters[row.status] += Number(row.n);
    counters.overdue += Number(row.overdue);
  }
  return result;
}
