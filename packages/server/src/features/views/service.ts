import { and, asc, eq, or, sql } from 'drizzle-orm';
import { can, personName, ViewKinds, type TView, type TViewPatch, type ZViewCreate } from '@stageline/shared';
import type { z } from 'zod';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { authorizeProject } from '../projects';
import { authorize, type Actor } from '../workspaces';

const { savedViews, users } = schema;
type ViewRow = typeof savedViews.$inferSelect;

/** Who may change a view: its author; for a shared one, also Admins and the owner. */
function mayEdit(actor: Actor, userId: number, row: Pick<ViewRow, 'authorId' | 'shared'>): boolean {
  return row.authorId === userId || (row.shared && can(actor.role, 'view', 'moderate'));
}

function present(
  row: ViewRow,
  author: { id: number; firstName: string; lastName: string; username: string } | null,
  canEdit: boolean,
): TView {
  const filters = (row.filters ?? {}) as Record<string, string>;
  return {
    id: row.id,
    project: row.projectId,
    kind: ViewKinds.find((kind) => kind === row.kind) ?? 'matrix',
    name: row.name,
    filters,
    sort: row.sort,
    shared: row.shared,
    author: author ? { id: author.id, name: personName(author) } : null,
    can_edit: canEdit,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

async function loadOne(db: Db, actor: Actor, userId: number, id: number): Promise<TView> {
  const [row] = await db
    .select({ view: savedViews, author: users })
    .from(savedViews)
    .leftJoin(users, eq(users.id, savedViews.authorId))
    .where(eq(savedViews.id, id));
  if (!row) throw new AppError('not_found');
  return present(row.view, row.author, mayEdit(actor, userId, row.view));
}

/** POST views/: a personal view for anyone who sees the project; shared ones for Members and above. */
export async function createView(db: Db, { userId, input }: { userId: number; input: z.infer<typeof ZViewCreate> }) {
  const { actor } = await authorizeProject(db, { userId, projectId: input.project, action: 'view' });
  authorize(actor, 'view', input.shared ? 'share' : 'create');
  const [row] = await db
    .insert(savedViews)
    .values({
      projectId: input.project,
      authorId: userId,
      kind: input.kind,
      name: input.name,
      filters: input.filters,
      sort: input.sort ?? null,
      shared: input.shared,
    })
    .returning({ id: savedViews.id });
  return loadOne(db, actor, userId, row!.id);
}

/** GET views/?project=: the caller's own views and the project's shared ones, by name. */
export async function listViews(
  db: Db,
  { userId, projectId, kind }: { userId: number; projectId: number; kind?: (typeof ViewKinds)[number] },
): Promise<TView[]> {
  const { actor } = await authorizeProject(db, { userId, projectId, action: 'view' });
  const rows = await db
    .select({ view: savedViews, author: users })
    .from(savedViews)
    .leftJoin(users, eq(users.id, savedViews.authorId))
    .where(
      and(
        eq(savedViews.projectId, projectId),
        kind ? eq(savedViews.kind, kind) : undefined,
        or(eq(savedViews.shared, true), eq(savedViews.authorId, userId)),
      ),
    )
    .orderBy(asc(sql`lower(${savedViews.name})`), asc(savedViews.id));
  return rows.map((row) => present(row.view, row.author, mayEdit(actor, userId, row.view)));
}

/** A view the caller may see (their own or shared), with their role in its workspace; else 404. */
async function visibleView(db: Db, { userId, viewId }: { userId: number; viewId: number }) {
  const [row] = await db.select().from(savedViews).where(eq(savedViews.id, viewId));
  if (!row || (!row.shared && row.authorId !== userId)) throw new AppError('not_found');
  const { actor } = await authorizeProject(db, { userId, projectId: row.projectId, action: 'view' });
  return { row, actor };
}

/** PATCH views/{id}/: its author, or an Admin for a shared one; sharing needs a Member. */
export async function updateView(
  db: Db,
  { userId, viewId, patch }: { userId: number; viewId: number; patch: TViewPatch },
) {
  const { row, actor } = await visibleView(db, { userId, viewId });
  if (!mayEdit(actor, userId, row)) throw new AppError('permission_denied');
  if (patch.shared === true && !row.shared) authorize(actor, 'view', 'share');
  await db
    .update(savedViews)
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.filters !== undefined ? { filters: patch.filters } : {}),
      ...(patch.sort !== undefined ? { sort: patch.sort } : {}),
      ...(patch.shared !== undefined ? { shared: patch.shared } : {}),
      updatedAt: new Date(),
    })
    .where(eq(savedViews.id, viewId));
  return loadOne(db, actor, userId, viewId);
}

export async function deleteView(db: Db, { userId, viewId }: { userId: number; viewId: number }) {
  const { row, actor } = await visibleView(db, { userId, viewId });
  if (!mayEdit(actor, userId, row)) throw new AppError('permission_denied');
  await db.delete(savedViews).where(eq(savedViews.id, viewId));
}
