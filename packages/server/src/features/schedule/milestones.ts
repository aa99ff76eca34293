import { and, count, eq, inArray, sql } from 'drizzle-orm';
import {
  ScheduleLimits,
  ScheduleMessages,
  type TMilestone,
  type TMilestoneCreate,
  type TMilestonePatch,
} from '@stageline/shared/schedule';
import { rowsOf, schema, type Db } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { authorizeProject } from '../projects';
import { authorize } from '../workspaces';

/**
 * Milestones of a project (docs/schedule.md, "Milestones"): a name, a date and optionally the units
 * that must be done by then (none: every unit of the project). Everyone who sees the project sees
 * them; Members and above make, change and delete them.
 */

const { milestones, milestoneUnits, units } = schema;

type MilestoneRow = {
  id: number;
  projectId: number;
  name: string;
  date: string;
  units: number[];
  createdAt: string | Date;
  updatedAt: string | Date;
};

const iso = (value: string | Date) => new Date(value).toISOString();

export function presentMilestone(row: MilestoneRow): TMilestone {
  return {
    id: row.id,
    project: row.projectId,
    name: row.name,
    date: row.date,
    units: row.units,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** A project's milestones by date, each with its units. */
export async function milestonesOf(db: Db, projectId: number, only?: number): Promise<TMilestone[]> {
  const rows = await rowsOf<MilestoneRow>(
    db,
    sql`select m.id, m.project_id as "projectId", m.name, m.date::text as date,
      coalesce((select array_agg(mu.unit_id order by mu.unit_id) from milestone_units mu where mu.milestone_id = m.id), '{}') as units,
      m.created_at as "createdAt", m.updated_at as "updatedAt"
    from milestones m where m.project_id = ${projectId} ${only === undefined ? sql`` : sql`and m.id = ${only}`}
    order by m.date, m.id`,
  );
  return rows.map(presentMilestone);
}

/** GET projects/{id}/milestones/ */
export async function listMilestones(db: Db, { userId, projectId }: { userId: number; projectId: number }) {
  const { actor } = await authorizeProject(db, { userId, projectId, action: 'view' });
  authorize(actor, 'milestone', 'view');
  return { results: await milestonesOf(db, projectId) };
}

/** The units given must all be the project's (400 naming `units` otherwise). */
async function assertUnits(db: Db, projectId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const [found] = await db
    .select({ n: count() })
    .from(units)
    .where(and(eq(units.projectId, projectId), inArray(units.id, unique)));
  if ((found?.n ?? 0) !== unique.length) throw new FieldError({ units: [ScheduleMessages.unitsOutsideProject] });
  return unique;
}

async function replaceUnits(db: Db, milestoneId: number, ids: number[]) {
  await db.delete(milestoneUnits).where(eq(milestoneUnits.milestoneId, milestoneId));
  if (ids.length > 0) await db.insert(milestoneUnits).values(ids.map((unitId) => ({ milestoneId, unitId })));
}

/** POST projects/{id}/milestones/ (Members and above). */
export async function createMilestone(
  db: Db,
  { userId, projectId, input }: { userId: number; projectId: number; input: TMilestoneCreate },
): Promise<TMilestone> {
  const { actor } = await authorizeProject(db, { userId, projectId, action: 'view' });
  authorize(actor, 'milestone', 'manage');
  const ids = await assertUnits(db, projectId, input.units ?? []);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ n: count() }).from(milestones).where(eq(milestones.projectId, projectId));
    if ((existing?.n ?? 0) >= ScheduleLimits.milestones)
      throw new AppError('bad_request', ScheduleMessages.tooManyMilestones, { max: ScheduleLimits.milestones });
    const [row] = await tx
      .insert(milestones)
      .values({ projectId, name: input.name, date: input.date })
      .returning({ id: milestones.id });
    await replaceUnits(tx, row!.id, ids);
    return (await milestonesOf(tx, projectId, row!.id))[0]!;
  });
}

/** The milestone and its project, as `userId` may see it (else 404). */
async function milestoneScope(db: Db, userId: number, milestoneId: number) {
  const [row] = await db
    .select({ projectId: milestones.projectId })
    .from(milestones)
    .where(eq(milestones.id, milestoneId));
  if (!row) throw new AppError('not_found');
  const { actor } = await authorizeProject(db, { userId, projectId: row.projectId, action: 'view' });
  authorize(actor, 'milestone', 'manage');
  return row.projectId;
}

/** PATCH milestones/{id}/ (Members and above). */
export async function updateMilestone(
  db: Db,
  { userId, milestoneId, patch }: { userId: number; milestoneId: number; patch: TMilestonePatch },
): Promise<TMilestone> {
  const projectId = await milestoneScope(db, userId, milestoneId);
  const ids = patch.units === undefined ? undefined : await assertUnits(db, projectId, patch.units);
  return db.transaction(async (tx) => {
    await tx
      .update(milestones)
      .set({
        updatedAt: new Date(),
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.date !== undefined ? { date: patch.date } : {}),
      })
      .where(eq(milestones.id, milestoneId));
    if (ids) await replaceUnits(tx, milestoneId, ids);
    return (await milestonesOf(tx, projectId, milestoneId))[0]!;
  });
}

/** DELETE milestones/{id}/ (Members and above). */
export async function deleteMilestone(db: Db, { userId, milestoneId }: { userId: number; milestoneId: number }) {
  await milestoneScope(db, userId, milestoneId);
  await db.delete(milestones).where(eq(milestones.id, milestoneId));
}
