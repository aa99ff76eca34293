import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { can, canShareReview, personName } from '@stageline/shared';
import {
  ReviewSessionLimits,
  ReviewSessionMessages,
  type TReviewSession,
  type TReviewSource,
} from '@stageline/shared/review-sessions';
import { schema, type Db } from '../../db';
import { AppError, FieldError } from '../../http/errors';
import { latestRoundRows, presentFiles, type FilesContext } from '../attachments';
import { authorizeProject } from '../projects';
import { actOnTask } from '../tasks';
import { authorize, authorizeIn, type Actor } from '../workspaces';
import { presentFeedback } from './presenter';

const { reviewSessions, reviewSessionItems, tasks, units, stages, pipelines, savedViews, users, workspaces } = schema;
const { clientFeedback } = schema;

/** The caller: the user and the session their file links are bound to. */
export type Caller = { userId: number; sessionId: number };

export type SessionRow = typeof reviewSessions.$inferSelect;

/** A session the user may see, with their role in its workspace: 404 when either is missing. */
export async function authorizeSession(
  db: Db,
  { userId, sessionId, action }: { userId: number; sessionId: number; action: 'view' | 'manage' | 'share' },
): Promise<{ actor: Actor; session: SessionRow; membersShare: boolean }> {
  const [row] = await db
    .select({ session: reviewSessions, membersShare: workspaces.membersShareReviews })
    .from(reviewSessions)
    .innerJoin(workspaces, eq(workspaces.id, reviewSessions.workspaceId))
    .where(eq(reviewSessions.id, sessionId));
  if (!row) throw new AppError('not_found');
  const actor = await authorizeIn(db, {
    userId,
    workspaceId: row.session.workspaceId,
    resource: 'review_session',
    action: 'view',
  });
  if (action === 'manage') authorize(actor, 'review_session', 'manage');
  if (action === 'share' && !canShareReview(actor.role, row.membersShare))
    throw new AppError('permission_denied', ReviewSessionMessages.shareNotAllowed);
  return { actor, session: row.session, membersShare: row.membersShare };
}

/** The matrix filters a saved view carries that choose tasks: pipeline, stage and status (comma lists). */
function viewFilter(filters: Record<string, unknown>, key: string): string[] {
  const value = filters[key];
  return typeof value === 'string' && value !== '' ? value.split(',').filter(Boolean) : [];
}

/**
 * The task ids a source names, in order, all of them tasks of `projectId` (docs/review-sessions.md):
 * picked ids as given (any outside the project refuses the whole call), a stage's tasks in a
 * status, or a saved view's pipeline/stage/status filters, both by unit name.
 */
async function tasksOfSource(
  db: Db,
  { userId, projectId, source }: { userId: number; projectId: number; source: TReviewSource },
): Promise<number[]> {
  const inProject = sql`${units.projectId} = ${projectId}`;
  const select = () =>
    db
      .select({ id: tasks.id })
      .from(tasks)
      .innerJoin(units, eq(units.id, tasks.unitId))
      .innerJoin(stages, eq(stages.id, tasks.stageId));
  const byUnit = [asc(units.name), asc(units.id), asc(stages.id)] as const;
  switch (source.kind) {
    case 'tasks': {
      const ids = [...new Set(source.tasks)];
      const found = new Set((await select().where(and(inArray(tasks.id, ids), inProject))).map((r) => r.id));
      if (found.size !== ids.length) throw new FieldError({ source: [ReviewSessionMessages.notInProject] });
      return ids;
    }
    case 'stage': {
      const [stage] = await db
        .select({ id: stages.id })
        .from(stages)
        .innerJoin(pipelines, eq(pipelines.id, stages.pipelineId))
        .where(and(eq(stages.id, source.stage), eq(pipelines.projectId, projectId)));
      if (!stage) throw new FieldError({ source: [ReviewSessionMessages.stageNotInProject] });
      const rows = await select()
        .where(and(eq(tasks.stageId, source.stage), eq(tasks.status, source.status), inProject))
        .orderBy(...byUnit);
      return rows.map((r) => r.id);
    }
    case 'view': {
      const [view] = await db
        .select({ filters: savedViews.filters, shared: savedViews.shared, authorId: savedViews.authorId })
        .from(savedViews)
        .where(and(eq(savedViews.id, source.view), eq(savedViews.projectId, projectId)));
      if (!view || (!view.shared && view.authorId !== userId))
        throw new FieldError({ source: [ReviewSessionMessages.viewNotInProject] });
      const filters = (view.filters ?? {}) as Record<string, unknown>;
      const numbers = (key: string) => viewFilter(filters, key).map(Number).filter(Number.isSafeInteger);
      const [pipelineIds, stageIds, statuses] = [numbers('pipeline'), numbers('stage'), viewFilter(filters, 'status')];
      const rows = await select()
        .where(
          and(
            inProject,
            pipelineIds.length > 0 ? inArray(tasks.pipelineId, pipelineIds) : undefined,
            stageIds.length > 0 ? inArray(tasks.stageId, stageIds) : undefined,
            statuses.length > 0 ? inArray(tasks.status, statuses as (typeof tasks.status._.data)[]) : undefined,
          ),
        )
        .orderBy(...byUnit)
        .limit(ReviewSessionLimits.items.max + 1);
      return rows.map((r) => r.id);
    }
  }
}

/** Appends tasks at the end of a session, skipping those already in it; over the cap refuses all. */
async function appendItems(tx: Db, sessionId: number, taskIds: number[]): Promise<void> {
  const existing = await tx
    .select({ taskId: reviewSessionItems.taskId, position: reviewSessionItems.position })
    .from(reviewSessionItems)
    .where(eq(reviewSessionItems.sessionId, sessionId));
  const present = new Set(existing.map((r) => r.taskId));
  const fresh = taskIds.filter((id) => !present.has(id));
  if (existing.length + fresh.length > ReviewSessionLimits.items.max)
    throw new FieldError({ source: [ReviewSessionMessages.tooMany] });
  const start = existing.reduce((max, r) => Math.max(max, r.position), 0);
  if (fresh.length === 0) return;
  await tx
    .insert(reviewSessionItems)
    .values(fresh.map((taskId, i) => ({ sessionId, taskId, position: start + i + 1 })))
    .onConflictDoNothing();
}

/** POST review_sessions/: a session of the project's tasks from a source (Members and above). */
export async function createSession(
  ctx: FilesContext,
  caller: Caller,
  input: { project: number; name: string; source: TReviewSource },
): Promise<TReviewSession> {
  const { actor, project } = await authorizeProject(ctx.db, {
    userId: caller.userId,
    projectId: input.project,
    action: 'view',
  });
  authorize(actor, 'review_session', 'manage');
  const taskIds = await tasksOfSource(ctx.db, { userId: caller.userId, projectId: project.id, source: input.source });
  if (taskIds.length === 0) throw new FieldError({ source: [ReviewSessionMessages.noTasks] });
  const id = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(reviewSessions)
      .values({ workspaceId: project.workspaceId, projectId: project.id, name: input.name, authorId: caller.userId })
      .returning({ id: reviewSessions.id });
    await appendItems(tx, row!.id, taskIds);
    return row!.id;
  });
  return loadSession(ctx, caller, id);
}

/** POST review_sessions/{id}/items/: more tasks at the end. */
export async function addItems(ctx: FilesContext, caller: Caller, sessionId: number, source: TReviewSource) {
  const { session } = await authorizeSession(ctx.db, { userId: caller.userId, sessionId, action: 'manage' });
  const taskIds = await tasksOfSource(ctx.db, { userId: caller.userId, projectId: session.projectId, source });
  await ctx.db.transaction(async (tx) => appendItems(tx, sessionId, taskIds));
  return loadSession(ctx, caller, sessionId);
}

/** PATCH review_sessions/{id}/: rename, and reorder by the full list of item ids. */
export async function updateSession(
  ctx: FilesContext,
  caller: Caller,
  sessionId: number,
  patch: { name?: string; order?: number[] },
): Promise<TReviewSession> {
  await authorizeSession(ctx.db, { userId: caller.userId, sessionId, action: 'manage' });
  await ctx.db.transaction(async (tx) => {
    if (patch.order) {
      // The session's row is locked so two reorders do not interleave.
      await tx.execute(sql`select id from review_sessions where id = ${sessionId} for update`);
      const items = await tx
        .select({ id: reviewSessionItems.id })
        .from(reviewSessionItems)
        .where(eq(reviewSessionItems.sessionId, sessionId));
      const ids = new Set(items.map((i) => i.id));
      const order = patch.order;
      if (order.length !== ids.size || new Set(order).size !== order.length || order.some((id) => !ids.has(id)))
        throw new FieldError({ order: [ReviewSessionMessages.orderMismatch] });
      for (const [index, id] of order.entries())
        await tx
          .update(reviewSessionItems)
          .set({ position: index + 1 })
          .where(eq(reviewSessionItems.id, id));
    }
    await tx
      .update(reviewSessions)
      .set({ ...(patch.name !== undefined ? { name: patch.name } : {}), updatedAt: new Date() })
      .where(eq(reviewSessions.id, sessionId));
  });
  return loadSession(ctx, caller, sessionId);
}

/** DELETE review_sessions/{id}/ */
export async function deleteSession(db: Db, { userId, sessionId }: { userId: number; sessionId: number }) {
  await authorizeSession(db, { userId, sessionId, action: 'manage' });
  await db.delete(reviewSessions).where(eq(reviewSessions.id, sessionId));
}

/** DELETE review_sessions/{id}/items/{item}/ */
export async function removeItem(ctx: FilesContext, caller: Caller, sessionId: number, itemId: number) {
  await authorizeSession(ctx.db, { userId: caller.userId, sessionId, action: 'manage' });
  const gone = await ctx.db
    .delete(reviewSessionItems)
    .where(and(eq(reviewSessionItems.id, itemId), eq(reviewSessionItems.sessionId, sessionId)))
    .returning({ id: reviewSessionItems.id });
  if (gone.length === 0) throw new AppError('not_found', ReviewSessionMessages.itemGone);
  return loadSession(ctx, caller, sessionId);
}

/** The item of a session, or a 404 that says it left. */
export async function itemOf(db: Db, sessionId: number, itemId: number) {
  const [item] = await db
    .select()
    .from(reviewSessionItems)
    .where(and(eq(reviewSessionItems.id, itemId), eq(reviewSessionItems.sessionId, sessionId)));
  if (!item) throw new AppError('not_found', ReviewSessionMessages.itemGone);
  return item;
}

/**
 * POST review_sessions/{id}/items/{item}/decide/: the task engine's own accept or reject (the same
 * rules, reviewers and return-to as on the task screen), then the item stays or leaves as asked.
 */
export async function decideItem(
  ctx: FilesContext,
  caller: Caller,
  {
    sessionId,
    itemId,
    decision,
  }: {
    sessionId: number;
    itemId: number;
    decision: { verdict: 'accept' | 'reject'; comment?: string; return_to?: number[]; keep: boolean };
  },
): Promise<TReviewSession> {
  await authorizeSession(ctx.db, { userId: caller.userId, sessionId, action: 'view' });
  const item = await itemOf(ctx.db, sessionId, itemId);
  const comment = decision.comment ? { comment: decision.comment } : {};
  await actOnTask(ctx.db, {
    userId: caller.userId,
    taskId: item.taskId,
    command:
      decision.verdict === 'accept'
        ? { type: 'accept', ...comment }
        : {
            type: 'reject',
            ...comment,
            ...(decision.return_to !== undefined ? { returnTo: decision.return_to } : {}),
          },
  });
  if (!decision.keep) await ctx.db.delete(reviewSessionItems).where(eq(reviewSessionItems.id, item.id));
  return loadSession(ctx, caller, sessionId);
}

/** The items of a session in order, with their task, unit and stage. */
export async function itemsOf(db: Db, sessionId: number) {
  return db
    .select({
      id: reviewSessionItems.id,
      position: reviewSessionItems.position,
      taskId: tasks.id,
      status: tasks.status,
      round: tasks.iterationNumber,
      unitId: units.id,
      unitName: units.name,
      stageId: stages.id,
      stageName: stages.name,
    })
    .from(reviewSessionItems)
    .innerJoin(tasks, eq(tasks.id, reviewSessionItems.taskId))
    .innerJoin(units, eq(units.id, tasks.unitId))
    .innerJoin(stages, eq(stages.id, tasks.stageId))
    .where(eq(reviewSessionItems.sessionId, sessionId))
    .orderBy(asc(reviewSessionItems.position), asc(reviewSessionItems.id));
}

/** Client feedback on tasks, the latest first, by task. */
export async function feedbackOf(db: Db, taskIds: number[], linkId?: number) {
  const byTask = new Map<number, ReturnType<typeof presentFeedback>[]>();
  if (taskIds.length === 0) return byTask;
  const rows = await db
    .select({ feedback: clientFeedback, sessionName: reviewSessions.name })
    .from(clientFeedback)
    .leftJoin(reviewSessions, eq(reviewSessions.id, clientFeedback.sessionId))
    .where(
      and(
        inArray(clientFeedback.taskId, taskIds),
        linkId !== undefined ? eq(clientFeedback.linkId, linkId) : undefined,
      ),
    )
    .orderBy(desc(clientFeedback.createdAt), desc(clientFeedback.id));
  for (const row of rows) {
    const list = byTask.get(row.feedback.taskId) ?? [];
    list.push(presentFeedback(row.feedback, row.sessionName));
    byTask.set(row.feedback.taskId, list);
  }
  return byTask;
}

/** GET review_sessions/{id}/: the session, its items in order with each task's latest round of files. */
export async function loadSession(ctx: FilesContext, caller: Caller, sessionId: number): Promise<TReviewSession> {
  const { actor, session, membersShare } = await authorizeSession(ctx.db, {
    userId: caller.userId,
    sessionId,
    action: 'view',
  });
  const [head] = await ctx.db
    .select({ projectName: schema.projects.name, author: users })
    .from(schema.projects)
    .leftJoin(users, eq(users.id, sql`${session.authorId}`))
    .where(eq(schema.projects.id, session.projectId));
  const items = await itemsOf(ctx.db, sessionId);
  const taskIds = items.map((i) => i.taskId);
  const [files, feedback] = await Promise.all([latestRoundRows(ctx.db, taskIds), feedbackOf(ctx.db, taskIds)]);
  const presented = await presentFiles(
    ctx,
    { actor, sessionId: caller.sessionId },
    [...files.values()].flatMap((f) => f.rows),
  );
  const byId = new Map(presented.map((f) => [f.id, f]));
  const manage = can(actor.role, 'review_session', 'manage');
  return {
    id: session.id,
    workspace: session.workspaceId,
    project: { id: session.projectId, name: head?.projectName ?? '' },
    name: session.name,
    author: head?.author ? { id: head.author.id, name: personName(head.author) } : null,
    created_at: session.createdAt.toISOString(),
    items: items.map((item) => {
      const round = files.get(item.taskId);
      return {
        id: item.id,
        position: item.position,
        task: {
          id: item.taskId,
          status: item.status,
          round: item.round,
          unit: { id: item.unitId, name: item.unitName },
          stage: { id: item.stageId, name: item.stageName },
        },
        files_round: round?.round ?? null,
        files: (round?.rows ?? []).map((r) => byId.get(r.id)!),
        client_feedback: feedback.get(item.taskId) ?? [],
      };
    }),
    abilities: { update: manage, delete: manage, share: canShareReview(actor.role, membersShare) },
  };
}

/** GET review_sessions/?project=: the project's sessions, newest first. */
export async function listSessions(db: Db, { userId, projectId }: { userId: number; projectId: number }) {
  const { actor } = await authorizeProject(db, { userId, projectId, action: 'view' });
  authorize(actor, 'review_session', 'view');
  const rows = await db
    .select({
      id: reviewSessions.id,
      name: reviewSessions.name,
      createdAt: reviewSessions.createdAt,
      count: sql<number>`(select count(*)::int from review_session_items i where i.session_id = ${reviewSessions.id})`,
    })
    .from(reviewSessions)
    .where(eq(reviewSessions.projectId, projectId))
    .orderBy(desc(reviewSessions.id));
  return {
    results: rows.map((r) => ({
      id: r.id,
      name: r.name,
      project: projectId,
      items_count: Number(r.count),
      created_at: r.createdAt.toISOString(),
    })),
  };
}

/** GET tasks/{id}/client_feedback/: what clients said about a task, for anyone who sees it. */
export async function taskFeedback(db: Db, { userId, taskId }: { userId: number; taskId: number }) {
  const [row] = await db
    .select({ workspaceId: schema.projects.workspaceId })
    .from(tasks)
    .innerJoin(units, eq(units.id, tasks.unitId))
    .innerJoin(schema.projects, eq(schema.projects.id, units.projectId))
    .where(eq(tasks.id, taskId));
  if (!row) throw new AppError('not_found');
  await authorizeIn(db, { userId, workspaceId: row.workspaceId, resource: 'task', action: 'view' });
  return { results: (await feedbackOf(db, [taskId])).get(taskId) ?? [] };
}
