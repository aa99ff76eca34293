import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { TIteration, TTaskStatus } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { emitWebhookEvents, publish, type WebhookEventInput } from '../events';
import { excerpt } from './presenter';
import { notify } from './service';

/** A task's state as notifications compare it before and after a change. */
export type TaskSnapshot = {
  status: TTaskStatus;
  assignees: readonly number[];
  reviewers: readonly number[];
  iteration: TIteration | null;
  /** Teams and review rules: reviewers who review only through teams, with those teams' names. */
  reviewerTeams?: ReadonlyMap<number, string>;
};

export type TaskChange = {
  task: { id: number; unitId: number; stageId: number; pipelineId: number };
  before: TaskSnapshot;
  after: TaskSnapshot;
  /** People, due date or use-stage-defaults were edited (a `task` event even without a status change). */
  edited?: boolean;
  /** Sent back to Edit by a successor's rejection, with its comment. */
  sentBack?: { comment: string };
};

const added = (before: readonly number[], after: readonly number[]) => after.filter((id) => !before.includes(id));

/** The comments given with the reactions of one round, in order (the `text` of accepted / rejected). */
async function reactionComments(tx: Db, taskId: number, iteration: number, verdict: 'accept' | 'reject') {
  const rows = await tx
    .select({ comment: schema.taskHistory.comment })
    .from(schema.taskHistory)
    .where(
      and(
        eq(schema.taskHistory.taskId, taskId),
        eq(schema.taskHistory.iteration, iteration),
        eq(schema.taskHistory.action, verdict),
        isNotNull(schema.taskHistory.comment),
      ),
    )
    .orderBy(asc(schema.taskHistory.id));
  return rows
    .map((r) => r.comment?.trim() ?? '')
    .filter(Boolean)
    .join('\n\n');
}

const newIn = (before: readonly number[] | undefined, after: readonly number[]) =>
  after.filter((id) => !(before ?? []).includes(id));

/**
 * The webhook events of one task change (docs/integrations.md): `task.review` for each reaction
 * given (who, accept or reject, and the round's outcome once it closed), `task.status_changed`, and
 * `task.updated` when its people or due date were edited.
 */
function taskWebhookEvents(actorId: number, { task, before, after, edited }: TaskChange): WebhookEventInput[] {
  const ref = { id: task.id, unit: task.unitId, stage: task.stageId, pipeline: task.pipelineId, status: after.status };
  const events: WebhookEventInput[] = [];
  const round = after.iteration;
  if (round) {
    const sameRound = before.iteration?.number === round.number;
    const outcome = round.closed ? round.outcome : null;
    for (const [verdict, ids] of [
      ['accept', newIn(sameRound ? before.iteration?.acceptedBy : [], round.acceptedBy)],
      ['reject', newIn(sameRound ? before.iteration?.rejectedBy : [], round.rejectedBy)],
    ] as const) {
      for (const reviewer of ids) {
        events.push({ event: 'task.review', data: { task: ref, verdict, reviewer, round: round.number, outcome } });
      }
    }
  }
  if (before.status !== after.status) {
    events.push({
      event: 'task.status_changed',
      data: { task: ref, from: before.status, to: after.status, actor: actorId },
    });
  }
  if (edited) {
    events.push({
      event: 'task.updated',
      data: { task: ref, assignees: [...after.assignees], reviewers: [...after.reviewers], actor: actorId },
    });
  }
  return events;
}

/**
 * `review_requested` to reviewers; one who reviews through teams gets the teams' names as the
 * notification's text, so that it reads "review requested from Lighting leads" (docs/review-rules.md).
 */
export async function notifyReviewRequested(
  tx: Db,
  base: { actorId: number; workspaceId: number; taskId: number; unitId: number },
  recipients: readonly number[],
  reviewerTeams: ReadonlyMap<number, string> = new Map(),
): Promise<void> {
  const byText = new Map<string, number[]>();
  for (const id of recipients) {
    const text = reviewerTeams.get(id) ?? '';
    byText.set(text, [...(byText.get(text) ?? []), id]);
  }
  for (const [text, ids] of byText) await notify(tx, { ...base, kind: 'review_requested', recipients: ids, text });
}

/**
 * What the task calls tell others, in their transaction: a `task` live event to the workspace for
 * every task whose status, people or due date changed, and the notifications of docs/rules.md §Notifications —
 * `assigned` / `reviewer_added` to people who newly became effective assignees / reviewers,
 * `review_requested` to the reviewers of a task that entered review, `accepted` / `rejected` to the
 * assignees when a round closes (with the reactions' comments), `rejected` to the assignees of a
 * task sent back by a successor's rejection. The actor is never notified.
 */
export async function reportTaskChanges(
  tx: Db,
  { actorId, workspaceId, changes }: { actorId: number; workspaceId: number; changes: TaskChange[] },
): Promise<void> {
  await emitWebhookEvents(
    tx,
    workspaceId,
    changes.flatMap((change) => taskWebhookEvents(actorId, change)),
  );
  for (const { task, before, after, edited, sentBack } of changes) {
    if (before.status === after.status && !edited) continue;
    await publish(
      tx,
      { workspace: workspaceId },
      {
        type: 'task',
        data: { id: task.id, unit: task.unitId, stage: task.stageId, pipeline: task.pipelineId, status: after.status },
      },
    );
    const base = { actorId, workspaceId, taskId: task.id, unitId: task.unitId };
    await notify(tx, { ...base, kind: 'assigned', recipients: added(before.assignees, after.assignees) });
    await notify(tx, { ...base, kind: 'reviewer_added', recipients: added(before.reviewers, after.reviewers) });
    if (before.status !== 'review' && after.status === 'review') {
      await notifyReviewRequested(tx, base, after.reviewers, after.reviewerTeams);
    }
    const round = after.iteration;
    const closedNow =
      round !== null &&
      round.closed &&
      before.iteration?.number === round.number &&
      !before.iteration.closed &&
      round.outcome !== 'overridden';
    if (closedNow) {
      const verdict = round.outcome === 'done' ? 'accept' : 'reject';
      await notify(tx, {
        ...base,
        kind: verdict === 'accept' ? 'accepted' : 'rejected',
        recipients: after.assignees,
        text: excerpt(await reactionComments(tx, task.id, round.number, verdict)),
      });
    }
    if (sentBack && before.status !== after.status) {
      await notify(tx, { ...base, kind: 'rejected', recipients: after.assignees, text: excerpt(sentBack.comment) });
    }
  }
}
