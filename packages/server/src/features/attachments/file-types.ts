import { eq } from 'drizzle-orm';
import { fileTypeGroup, normalizeFileTypeGroups, type TFileTypeGroup } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { recordAudit } from '../audit';
import { authorizeIn } from '../workspaces';

/** The groups of files a workspace takes (decision 198). */
export async function allowedFileTypes(db: Db, workspaceId: number): Promise<TFileTypeGroup[]> {
  const [row] = await db
    .select({ allowed: schema.workspaces.allowedFileTypes })
    .from(schema.workspaces)
    .where(eq(schema.workspaces.id, workspaceId));
  return normalizeFileTypeGroups(row?.allowed ?? []);
}

/**
 * Refuses a file whose group the workspace does not take, naming its type (`.exe`, or the content
 * type that gives it away), translated. Called with the name alone before the
 * bytes arrive, and again with the detected content type.
 */
export function checkFileType(allowed: readonly TFileTypeGroup[], file: { name: string; contentType?: string }): void {
  const { group, type } = fileTypeGroup(file);
  if (group === null || allowed.includes(group)) return;
  throw new AppError(
    'unsupported_media_type',
    'Files of type {{type}} are not allowed in this workspace. An Admin can change the allowed types in the workspace settings.',
    { type: type || file.name },
  );
}

/** GET workspaces/{id}/file_types/: any member. */
export async function getFileTypes(db: Db, { userId, workspaceId }: { userId: number; workspaceId: number }) {
  await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'view' });
  return { allowed: await allowedFileTypes(db, workspaceId) };
}

/** PUT workspaces/{id}/file_types/: Admins and the owner; applies to uploads from now on. */
export async function setFileTypes(
  db: Db,
  { userId, workspaceId, allowed }: { userId: number; workspaceId: number; allowed: readonly string[] },
) {
  await authorizeIn(db, { userId, workspaceId, resource: 'workspace', action: 'update' });
  const groups = normalizeFileTypeGroups(allowed);
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({ allowed: schema.workspaces.allowedFileTypes })
      .from(schema.workspaces)
      .where(eq(schema.workspaces.id, workspaceId))
      .for('update');
    await tx
      .update(schema.workspaces)
      .set({ allowedFileTypes: groups, updatedAt: new Date() })
      .where(eq(schema.workspaces.id, workspaceId));
    await recordAudit(tx, workspaceId, {
      action: 'workspace.settings_changed',
      actorId: userId,
      target: { kind: 'workspace', id: workspaceId },
      details: { allowedFileTypes: { from: before?.allowed ?? [], to: groups } },
    });
  });
  return { allowed: groups };
}
