import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { FieldLimits, type TFieldValue } from '@stageline/shared';
import {
  checkFieldValue,
  FieldMessages,
  type TFieldDefinition,
  type TFieldOption,
  type TFieldPatch,
  type ZFieldCreate,
} from '@stageline/shared/fields';
import type { z } from 'zod';
import { schema, type Db } from '../../db';
import { AppError, FieldError, type FieldMessage } from '../../http/errors';
import { authorizeProject } from '../projects';
import { authorize, authorizeIn } from '../workspaces';

const { fieldDefinitions, memberships } = schema;
export type FieldRow = typeof fieldDefinitions.$inferSelect;

export function presentField(row: FieldRow): TFieldDefinition {
  return {
    id: row.id,
    project: row.projectId,
    key: row.key,
    name: row.name,
    kind: row.kind,
    applies_to: row.appliesTo,
    stages: row.stageIds,
    required: row.required,
    default: row.defaultValue ?? null,
    unit: row.unit,
    options: row.options,
    position: row.position,
    archived: row.archivedAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

/** A project's field definitions in their order (archived ones too: their values are still stored). */
export async function loadProjectFields(db: Db, projectId: number): Promise<FieldRow[]> {
  return db
    .select()
    .from(fieldDefinitions)
    .where(eq(fieldDefinitions.projectId, projectId))
    .orderBy(asc(fieldDefinitions.position), asc(fieldDefinitions.id));
}

/** GET projects/{id}/fields/: everyone who sees the project. */
export async function listFields(
  db: Db,
  { userId, projectId, archived }: { userId: number; projectId: number; archived?: 'true' | 'false' },
) {
  const { actor } = await authorizeProject(db, { userId, projectId, action: 'view' });
  authorize(actor, 'field', 'view');
  const rows = await loadProjectFields(db, projectId);
  return rows
    .filter((row) => archived === undefined || (row.archivedAt !== null) === (archived === 'true'))
    .map(presentField);
}

/**
 * Options as stored: ids made from labels where the Admin gave none that is new, unique; the
 * default checked as a value of the field; options only on selects.
 */
function checkDefinition(
  kind: TFieldDefinition['kind'],
  input: { options?: TFieldOption[]; default?: TFieldValue },
  errors: Record<string, FieldMessage[]>,
) {
  const select = kind === 'select' || kind === 'multi_select';
  const options = input.options ?? [];
  if (!select && options.length > 0) errors.options = [FieldMessages.optionsOnlyForSelect];
  if (select && input.options !== undefined && options.length === 0)
    errors.options = [FieldMessages.selectNeedsOptions];
  if (new Set(options.map((o) => o.id)).size !== options.length) errors.options = [FieldMessages.duplicateOption];
  if (input.default !== undefined && input.default !== null) {
    const checked = checkFieldValue({ kind, options }, input.default);
    if (!checked.ok)
      errors.default = [checked.params ? { message: checked.message, params: checked.params } : checked.message];
  }
}

/** POST projects/{id}/fields/ (Admins). */
export async function createField(
  db: Db,
  { userId, projectId, input }: { userId: number; projectId: number; input: z.infer<typeof ZFieldCreate> },
) {
  const { project } = await authorizeProject(db, { userId, projectId, action: 'view' });
  await authorizeIn(db, { userId, workspaceId: project.workspaceId, resource: 'field', action: 'manage' });
  const existing = await loadProjectFields(db, projectId);
  const errors: Record<string, FieldMessage[]> = {};
  if (existing.some((row) => row.key === input.key)) errors.key = [FieldMessages.keyTaken];
  if (existing.length >= FieldLimits.perProject.max) {
    errors.detail = [{ message: FieldMessages.tooManyFields, params: { max: FieldLimits.perProject.max } }];
  }
  if (input.kind === 'select' || input.kind === 'multi_select') {
    if (input.options.length === 0) errors.options = [FieldMessages.selectNeedsOptions];
  }
  checkDefinition(input.kind, { options: input.options, default: input.default }, errors);
  if (input.applies_to === 'unit' && input.stages.length > 0) errors.stages = [FieldMessages.notForTasks];
  if (Object.keys(errors).length > 0) throw new FieldError(errors);
  const position = input.position ?? Math.max(-1, ...existing.map((row) => row.position)) + 1;
  const [row] = await db
    .insert(fieldDefinitions)
    .values({
      projectId,
      key: input.key,
      name: input.name,
      kind: input.kind,
      appliesTo: input.applies_to,
      stageIds: input.stages,
      required: input.required,
      defaultValue: input.default,
      unit: input.unit,
      options: input.options,
      position,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new FieldError({ key: [FieldMessages.keyTaken] });
  return presentField(row);
}

/** PATCH fields/{id}/ (Admins): everything but key, kind and target; `archived` hides it without losing values. */
export async function updateField(
  db: Db,
  { userId, fieldId, patch }: { userId: number; fieldId: number; patch: TFieldPatch },
) {
  const [found] = await db.select().from(fieldDefinitions).where(eq(fieldDefinitions.id, fieldId));
  if (!found) throw new AppError('not_found');
  const { project } = await authorizeProject(db, { userId, projectId: found.projectId, action: 'view' });
  await authorizeIn(db, { userId, workspaceId: project.workspaceId, resource: 'field', action: 'manage' });
  const errors: Record<string, FieldMessage[]> = {};
  const options = patch.options ?? found.options;
  checkDefinition(
    found.kind,
    { options: patch.options, default: patch.default === undefined ? undefined : patch.default },
    errors,
  );
  if (patch.options !== undefined && patch.default === undefined && found.defaultValue !== null) {
    // A default whose option went away is dropped rather than refused.
    if (!checkFieldValue({ kind: found.kind, options }, found.defaultValue).ok) patch = { ...patch, default: null };
  }
  if (found.appliesTo === 'unit' && patch.stages && patch.stages.length > 0)
    errors.stages = [FieldMessages.notForTasks];
  if (Object.keys(errors).length > 0) throw new FieldError(errors);
  const changes: Partial<typeof fieldDefinitions.$inferInsert> = {
    name: patch.name,
    required: patch.required,
    defaultValue: patch.default,
    unit: patch.unit,
    options: patch.options,
    stageIds: patch.stages,
    position: patch.position,
    archivedAt: patch.archived === undefined ? undefined : patch.archived ? (found.archivedAt ?? new Date()) : null,
  };
  const [row] = await db
    .update(fieldDefinitions)
    .set({
      ...Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)),
      updatedAt: new Date(),
    })
    .where(eq(fieldDefinitions.id, fieldId))
    .returning();
  if (!row) throw new AppError('not_found');
  return presentField(row);
}

/** What a `fields` object of a request changes: values to set and keys to clear, checked. */
export type FieldChanges = { set: Record<string, Exclude<TFieldValue, null>>; clear: string[] };

/** A key as an error names it: odd characters dropped, so the error's own key stays readable. */
const keyForError = (key: string) => `fields.${key.replace(/[^\w-]/g, '').slice(0, FieldLimits.key.max) || '?'}`;

/**
 * The `fields` of a unit's create or update, checked against the project's definitions: unknown or
 * archived keys (another project's field included), values of the wrong type, options that do not
 * exist, people outside the workspace, required fields left empty (on create also those not sent
 * and without a default). Every error names its field (`fields.<key>`); nothing is stored on any.
 */
export async function checkFieldChanges(
  db: Db,
  {
    projectId,
    workspaceId,
    input,
    target,
    creating,
  }: {
    projectId: number;
    workspaceId: number;
    input: Record<string, unknown> | undefined;
    target: 'unit' | 'task';
    creating: boolean;
  },
): Promise<FieldChanges> {
  const changes: FieldChanges = { set: {}, clear: [] };
  const entries = Object.entries(input ?? {});
  if (entries.length === 0 && !creating) return changes;
  const defs = (await loadProjectFields(db, projectId)).filter(
    (row) => row.appliesTo === target && row.archivedAt === null,
  );
  const byKey = new Map(defs.map((row) => [row.key, row]));
  const errors: Record<string, FieldMessage[]> = {};
  const people = entries.some(([key]) => byKey.get(key)?.kind === 'person')
    ? new Set(
        (
          await db.select({ id: memberships.userId }).from(memberships).where(eq(memberships.workspaceId, workspaceId))
        ).map((row) => row.id),
      )
    : undefined;
  for (const [key, raw] of entries) {
    const def = byKey.get(key);
    if (!def) {
      errors[keyForError(key)] = [
        /^[a-z][a-z0-9_]{0,29}$/.test(key) ? FieldMessages.unknownField : FieldMessages.badKey,
      ];
      continue;
    }
    const checked = checkFieldValue(def, raw, people);
    if (!checked.ok) {
      errors[`fields.${key}`] = [
        checked.params ? { message: checked.message, params: checked.params } : checked.message,
      ];
    } else if (checked.value === null) {
      if (def.required) errors[`fields.${key}`] = [FieldMessages.required];
      else changes.clear.push(key);
    } else changes.set[key] = checked.value;
  }
  if (creating) {
    for (const def of defs) {
      if (def.key in changes.set || changes.clear.includes(def.key) || errors[`fields.${def.key}`]) continue;
      if (def.defaultValue !== null && def.defaultValue !== undefined) changes.set[def.key] = def.defaultValue;
      else if (def.required) errors[`fields.${def.key}`] = [FieldMessages.required];
    }
  }
  if (Object.keys(errors).length > 0) throw new FieldError(errors);
  return changes;
}

/** The SQL that applies `changes` to a `fields` jsonb column (one expression, no read first). */
export function applyFieldChanges(column: ReturnType<typeof sql>, changes: FieldChanges) {
  return sql`(${column} || ${JSON.stringify(changes.set)}::jsonb) - ${`{${changes.clear.join(',')}}`}::text[]`;
}

/** Field defaults of a project's units, as one jsonb object, for units made in bulk (batch, import). */
export async function unitFieldDefaults(db: Db, projectId: number): Promise<Record<string, unknown>> {
  const rows = await db
    .select({ key: fieldDefinitions.key, value: fieldDefinitions.defaultValue })
    .from(fieldDefinitions)
    .where(
      and(
        eq(fieldDefinitions.projectId, projectId),
        eq(fieldDefinitions.appliesTo, 'unit'),
        isNull(fieldDefinitions.archivedAt),
        sql`${fieldDefinitions.defaultValue} is not null`,
      ),
    );
  return Object.fromEntries(rows.map((row) => [row.key, row.value]));
}
