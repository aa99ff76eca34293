import { eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { NotificationKinds, personName, type TNotification, type TNotificationKind } from '@stageline/shared';
import { schema, type Db } from '../../db';

const { notifications, tasks, units, stages, workspaces, users } = schema;
const taskUnits = alias(units, 'task_unit');

/** Comment excerpts in notifications are at most this long. */
export const ExcerptLength = 300;

/** The first `ExcerptLength` characters of a text, with an ellipsis when cut. */
export function excerpt(text: string, max = ExcerptLength): string {
  const chars = [...text.trim()];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

const asKind = (value: string): TNotificationKind => NotificationKinds.find((k) => k === value) ?? 'comment';

/**
 * Notifications as the API and the live stream show them (`ZNotification`): the task named by its
 * unit and stage, the unit with its project, the workspace and the actor, in one query.
 */
export async function loadNotifications(
  db: Db,
  where: SQL,
  page: { limit?: number; offset?: number } = {},
): Promise<{ total: number; results: TNotification[] }> {
  let query = db
    .select({
      n: notifications,
      taskUnit: taskUnits.name,
      taskStage: stages.name,
      unit: { id: units.id, name: units.name, project: units.projectId },
      workspace: { id: workspaces.id, name: workspaces.name },
      actor: { id: users.id, firstName: users.firstName, lastName: users.lastName, username: users.username },
      total: sql<number>`count(*) over ()::int`,
    })
    .from(notifications)
    .leftJoin(tasks, eq(tasks.id, notifications.taskId))
    .leftJoin(taskUnits, eq(taskUnits.id, tasks.unitId))
    .leftJoin(stages, eq(stages.id, tasks.stageId))
    .leftJoin(units, eq(units.id, notifications.unitId))
    .leftJoin(workspaces, eq(workspaces.id, notifications.workspaceId))
    .leftJoin(users, eq(users.id, notifications.actorId))
    .where(where)
    .orderBy(sql`${notifications.id} desc`)
    .$dynamic();
  if (page.limit !== undefined) query = query.limit(page.limit);
  if (page.offset !== undefined) query = query.offset(page.offset);
  const rows = await query;
  return {
    total: Number(rows[0]?.total ?? 0),
    results: rows.map(({ n, taskUnit, taskStage, unit, workspace, actor }) => ({
      id: n.id,
      kind: asKind(n.kind),
      read: n.readAt !== null,
      created_at: n.createdAt.toISOString(),
      task: n.taskId !== null ? { id: n.taskId, unit: taskUnit ?? '', stage: taskStage ?? '' } : null,
      unit: unit?.id != null ? unit : null,
      workspace: workspace?.id != null ? workspace : null,
      comment: n.commentId,
      actor: actor?.id != null ? { id: actor.id, name: personName(actor), username: actor.username } : null,
      text: n.text,
    })),
  };
}
