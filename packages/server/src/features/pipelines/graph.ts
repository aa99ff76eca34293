import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  GraphErrorMessages,
  Limits,
  validateGraph,
  type TGraphError,
  type TGraphSave,
  type TGraphSaveResult,
} from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import type { ProjectRow } from '../projects';
import { assertMembers, replacePeople } from './people';
import { authorizePipeline, type StageRow } from './policy';
import { loadPipeline } from './read';
import { assertOneDue, settingsColumns } from './settings';
import { onGraphSaved, onStagesAdded, onStagesRemoved } from './stage-hooks';
import { emitWebhookEvents } from '../events';

const { pipelines, stages, stageEdges } = schema;

type NodeInput = TGraphSave['nodes'][number];
type Ref = number | string;

export const GraphMessages = {
  conflict: 'The pipeline was changed by someone else',
  foreignNode: 'A stage does not belong to this pipeline.',
  kindChanged: 'A node cannot change its kind.',
  startEndKept: 'Start and end stages cannot be deleted.',
} as const;

/** A broken graph rule as the API answers it: `pipeline_cycle`, or `bad_request` with the rule's message. */
function graphError(error: TGraphError<Ref>): AppError {
  if (error.code === 'pipeline_cycle') return new AppError('pipeline_cycle', undefined, {}, {}, { rule: error.code });
  return new AppError(
    'bad_request',
    GraphErrorMessages[error.code],
    { max: Limits.pipelineStages.max },
    {},
    {
      rule: error.code,
    },
  );
}

const refOf = (node: NodeInput): Ref => node.id ?? node.tmp_id!;

/** The checks that need no database: the shared graph rules, due defaults, then members. */
async function checkInput(db: Db, workspaceId: number, input: TGraphSave): Promise<void> {
  const errors = validateGraph(
    input.nodes.map((node) => ({ id: refOf(node), kind: node.kind })),
    input.edges,
  );
  if (errors.length > 0) throw graphError(errors[0]!);
  input.nodes.forEach((node, i) => assertOneDue(node, `nodes.${i}.default_due_date`));
  await assertMembers(
    db,
    workspaceId,
    input.nodes.flatMap((node, i) => [
      { field: `nodes.${i}.default_assignees`, ids: node.default_assignees },
      { field: `nodes.${i}.default_reviewers`, ids: node.default_reviewers },
    ]),
  );
}

/** The node as sent, checked against what is stored: known to this pipeline, same kind, start and end kept. */
function checkAgainstStored(input: TGraphSave, stored: Map<number, StageRow>): void {
  for (const node of input.nodes) {
    if (node.id === undefined) continue;
    const row = stored.get(node.id);
    if (!row) throw new AppError('bad_request', GraphMessages.foreignNode);
    if (row.kind !== node.kind) throw new AppError('bad_request', GraphMessages.kindChanged);
  }
  const kept = new Set(input.nodes.flatMap((node) => node.id ?? []));
  for (const row of stored.values()) {
    if (row.kind !== 'stage' && !kept.has(row.id)) throw new AppError('bad_request', GraphMessages.startEndKept);
  }
}

/** A new stage's row: what the node gives, the project's review defaults for the rest. */
function newStageRow(pipelineId: number, project: ProjectRow, node: NodeInput) {
  return {
    pipelineId,
    kind: 'stage',
    x: node.x,
    y: node.y,
    reviewMode: project.reviewMode,
    skipReviewIfNoReviewers: project.skipReviewIfNoReviewers,
    acceptEditAsDone: project.acceptEditAsDone,
    todoEnabled: project.todoEnabled,
    ...settingsColumns(node),
    name: node.name,
  };
}

/** The stored row with a node's position and, for stages, its name and any settings it gives. */
function mergedRow(row: StageRow, node: NodeInput): StageRow {
  if (row.kind !== 'stage') return { ...row, x: node.x, y: node.y };
  return { ...row, ...settingsColumns(node), name: node.name, x: node.x, y: node.y };
}

const sameRow = (a: StageRow, b: StageRow) =>
  (
    [
      'name',
      'description',
      'x',
      'y',
      'reviewMode',
      'skipReviewIfNoReviewers',
      'acceptEditAsDone',
      'todoEnabled',
      'defaultDueDays',
      'defaultDueDate',
      'defaultEstimateHours',
    ] as const
  ).every((key) => a[key] === b[key]);

/** Writes changed stages in one `UPDATE … FROM (VALUES …)`, not one statement per stage. */
async function updateStages(tx: Db, rows: StageRow[]): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.id}::int, ${r.name}::varchar, ${r.description}::text, ${r.x}::float8, ${r.y}::float8, ${r.reviewMode}::varchar, ${r.skipReviewIfNoReviewers}::boolean, ${r.acceptEditAsDone}::boolean, ${r.todoEnabled}::boolean, ${r.defaultDueDays}::int, ${r.defaultDueDate}::date, ${r.defaultEstimateHours}::numeric)`,
    ),
    sql`, `,
  );
  await tx.execute(sql`
    update ${stages} set
      name = v.name, description = v.description, x = v.x, y = v.y, review_mode = v.review_mode,
      skip_review_if_no_reviewers = v.skip, accept_edit_as_done = v.accept, todo_enabled = v.todo,
      default_due_days = v.due_days, default_due_date = v.due_date, default_estimate_hours = v.estimate,
      updated_at = now()
    from (values ${values}) as v(id, name, description, x, y, review_mode, skip, accept, todo, due_days, due_date, estimate)
    where ${stages.id} = v.id`);
}

const edgeKey = (source: number, target: number) => `${source}>${target}`;

/** Replaces the edges of the pipeline with `wanted`, deleting and inserting only the difference. */
async function replaceEdges(tx: Db, pipelineId: number, wanted: { sourceId: number; targetId: number }[]) {
  const current = await tx
    .select({ id: stageEdges.id, sourceId: stageEdges.sourceId, targetId: stageEdges.targetId })
    .from(stageEdges)
    .where(eq(stageEdges.pipelineId, pipelineId));
  const wantedKeys = new Set(wanted.map((e) => edgeKey(e.sourceId, e.targetId)));
  const currentKeys = new Set(current.map((e) => edgeKey(e.sourceId, e.targetId)));
  const gone = current.filter((e) => !wantedKeys.has(edgeKey(e.sourceId, e.targetId))).map((e) => e.id);
  const added = wanted.filter((e) => !currentKeys.has(edgeKey(e.sourceId, e.targetId)));
  if (gone.length > 0) await tx.delete(stageEdges).where(inArray(stageEdges.id, gone));
  for (let i = 0; i < added.length; i += 5000) {
    await tx.insert(stageEdges).values(added.slice(i, i + 5000).map((e) => ({ pipelineId, ...e })));
  }
}

/**
 * PUT pipelines/{id}/graph/ (Member and above): the whole graph, saved in one transaction with the
 * pipeline row locked, so of two saves from the same version exactly one wins and the other gets
 * 409 with the current `version`. The shared rules (`validateGraph`) run on the graph as sent; then
 * removed stages are deleted (their edges with them), new ones inserted with the project's review
 * defaults, changed ones updated, and edges replaced, each in set-based statements (a 500-stage
 * pipeline costs a handful of queries). Start and end keep their names and settings: only their
 * positions are saved. The answer is the saved pipeline and the ids given to `tmp_id`s.
 */
export async function saveGraph(
  db: Db,
  { userId, pipelineId, input }: { userId: number; pipelineId: number; input: TGraphSave },
): Promise<TGraphSaveResult> {
  const { project } = await authorizePipeline(db, { userId, pipelineId, action: 'update' });
  await checkInput(db, project.workspaceId, input);

  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ version: pipelines.version })
      .from(pipelines)
      .where(eq(pipelines.id, pipelineId))
      .for('update');
    if (!locked) throw new AppError('not_found');
    if (locked.version !== input.version) {
      throw new AppError('conflict', GraphMessages.conflict, {}, {}, { version: locked.version });
    }

    const stored = new Map(
      (await tx.select().from(stages).where(eq(stages.pipelineId, pipelineId))).map((row) => [row.id, row]),
    );
    checkAgainstStored(input, stored);

    const kept = new Set(input.nodes.flatMap((node) => node.id ?? []));
    const removed = [...stored.keys()].filter((id) => !kept.has(id));
    if (removed.length > 0) {
      await onStagesRemoved(tx, { pipelineId, stageIds: removed });
      await tx.delete(stages).where(and(eq(stages.pipelineId, pipelineId), inArray(stages.id, removed)));
    }

    const fresh = input.nodes.filter((node) => node.tmp_id !== undefined);
    const inserted =
      fresh.length === 0
        ? []
        : await tx
            .insert(stages)
            .values(fresh.map((node) => newStageRow(pipelineId, project, node)))
            .returning({ id: stages.id });
    // PostgreSQL returns the rows of a multi-row INSERT in the order of its VALUES.
    const idMap: Record<string, number> = Object.fromEntries(fresh.map((node, i) => [node.tmp_id!, inserted[i]!.id]));

    const changed: StageRow[] = [];
    for (const node of input.nodes) {
      const row = node.id === undefined ? undefined : stored.get(node.id);
      if (!row) continue;
      const merged = mergedRow(row, node);
      if (!sameRow(row, merged)) changed.push(merged);
    }
    await updateStages(tx, changed);

    const idOf = (ref: Ref): number => (typeof ref === 'number' ? ref : idMap[ref]!);
    for (const which of ['assignees', 'reviewers'] as const) {
      const byStage = new Map<number, number[]>();
      for (const node of input.nodes) {
        const ids = which === 'assignees' ? node.default_assignees : node.default_reviewers;
        if (ids !== undefined && node.kind === 'stage') byStage.set(idOf(refOf(node)), ids);
      }
      await replacePeople(tx, which, byStage);
    }
    await replaceEdges(
      tx,
      pipelineId,
      input.edges.map((edge) => ({ sourceId: idOf(edge.source), targetId: idOf(edge.target) })),
    );

    if (inserted.length > 0) await onStagesAdded(tx, { pipelineId, stageIds: inserted.map((row) => row.id) });
    await onGraphSaved(tx, { pipelineId });
    await tx
      .update(pipelines)
      .set({
        version: sql`${pipelines.version} + 1`,
        updatedAt: new Date(),
        ...(input.layout ? { layout: input.layout } : {}),
      })
      .where(eq(pipelines.id, pipelineId));
    const pipeline = await loadPipeline(tx, { pipelineId, workspaceId: project.workspaceId });
    await emitWebhookEvents(tx, project.workspaceId, [
      {
        event: 'pipeline.updated',
        data: {
          pipeline: { id: pipeline.id, name: pipeline.name, project: project.id, version: pipeline.version },
          change: 'graph',
          stages: { added: inserted.map((row) => row.id), removed },
          actor: userId,
        },
      },
    ]);
    return { ...pipeline, id_map: idMap };
  });
}
