import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import { schema, type Db } from '../../db';
import { FieldError } from '../../http/errors';
import type { People } from './presenter';

const { memberships, stages, stageDefaultAssignees, stageDefaultReviewers } = schema;

export const notAMember = 'Only members of the workspace can be chosen.';

/** A list of user ids a request gives for one field, such as `nodes.3.default_reviewers`. */
export type PeopleField = { field: string; ids: readonly number[] | undefined };

/**
 * Default assignees and reviewers must be members of the workspace (pending invites are not):
 * a field error names each field with someone else in it.
 */
export async function assertMembers(db: Db, workspaceId: number, fields: PeopleField[]): Promise<void> {
  const wanted = [...new Set(fields.flatMap((f) => f.ids ?? []))];
  if (wanted.length === 0) return;
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), inArray(memberships.userId, wanted)));
  const members = new Set(rows.map((r) => r.userId));
  const errors: Record<string, string[]> = {};
  for (const { field, ids } of fields) if (ids?.some((id) => !members.has(id))) errors[field] = [notAMember];
  if (Object.keys(errors).length > 0) throw new FieldError(errors);
}

const tables = { assignees: stageDefaultAssignees, reviewers: stageDefaultReviewers } as const;

/**
 * The people of the stages matched by `where` (a condition on `stages`), keeping only those who are
 * still members of the workspace: someone who left stops being a default without a cleanup job.
 */
export async function peopleOf(db: Db, workspaceId: number, where: SQL): Promise<People> {
  const read = async (table: (typeof tables)[keyof typeof tables]) => {
    const rows = await db
      .select({ stageId: table.stageId, userId: table.userId })
      .from(table)
      .innerJoin(stages, eq(stages.id, table.stageId))
      .innerJoin(memberships, and(eq(memberships.userId, table.userId), eq(memberships.workspaceId, workspaceId)))
      .where(where)
      .orderBy(asc(table.stageId), asc(table.userId));
    const byStage = new Map<number, number[]>();
    for (const row of rows) {
      const list = byStage.get(row.stageId);
      if (list) list.push(row.userId);
      else byStage.set(row.stageId, [row.userId]);
    }
    return byStage;
  };
  return { assignees: await read(tables.assignees), reviewers: await read(tables.reviewers) };
}

/**
 * Replaces the default assignees or reviewers of some stages, in set-based statements: one delete,
 * one insert, whatever the number of stages.
 */
export async function replacePeople(
  db: Db,
  which: keyof typeof tables,
  byStage: ReadonlyMap<number, readonly number[]>,
): Promise<void> {
  if (byStage.size === 0) return;
  const table = tables[which];
  await db.delete(table).where(inArray(table.stageId, [...byStage.keys()]));
  const rows = [...byStage].flatMap(([stageId, ids]) => [...new Set(ids)].map((userId) => ({ stageId, userId })));
  if (rows.length > 0) await db.insert(table).values(rows);
}
