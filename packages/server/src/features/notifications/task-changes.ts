import type { TIteration, TTaskStatus } from '@stageline/shared';
import type { Db } from '../../db';
import { publishWithWebhooks, type PublishedEvent, type WebhookEventInput } from '../events';
import { excerpt } from './presenter';
import { notifyAll, type NotifyOptions } from './service';

/** A task's state as notifications compare it before and after a change. */
export type TaskSnapshot = {
  status: TTaskStatus;
  assignees: readonly number[];
  reviewers: readonly number[];
  iteration: TIteration | null;
  /** Teams and review rules: reviewers who review only through teams, with those teams' names. */
  reviewerTeams?: ReadonlyMap<number, string>;
  /** The comments given with the latest round's reactions, in order (`[verdict, comment]`). */
  roundComments?: readonly (readonly [string, string])[];
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

/** The comments given with `verdict` in a round, in order (the `text` of accepted / rejected). */
const verdictComments = (comments: readonly (readonly [string, string])[], verdict: 'accept' | 'reject') =>
  comments
    .filter(([given]) => given === verdict)
    .map(([, comment]) => comment.trim())
    .filter(Boolean)
    .join('\n\n');

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
function reviewRequested(
  base: { actorId: number; workspaceId: number; taskId: number; unitId: number },
  recipients: readonly number[],
  reviewerTeams: ReadonlyMap<number, string> = new Map(),
): NotifyOptions[] {
  const byText = new Map<string, number[]>();
  for (const id of recipients) {
    const text = reviewerTeams.get(id) ?? '';
    byText.set(text, [...(byText.get(text) ?? []), id]);
  }
  return [...byText].map(([text, ids]) => ({ ...base, kind: 'review_requested', recipients: ids, text }));
}

/** Sends `reviewRequested` (a reminder, docs/review-rules.md). */
export async function notifyReviewRequested(
  tx: Db,
  base: { actorId: number; workspaceId: number; taskId: number; unitId: number },
  recipients: readonly number[],
  reviewerTeams: ReadonlyMap<number, string> = new Map(),
): Promise<void> {
  await notifyAll(tx, reviewRequested(base, recipients, reviewerTeams));
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
  const live: PublishedEvent[] = [];
  const notes: NotifyOptions[] = [];
  for (const { task, before, after, edited, sentBack } of changes) {
    if (before.status === after.status && !edited) continue;
    live.push({
      audience: { workspace: workspaceId },
      event: {
        type: 'task',
        data: { id: task.id, unit: task.unitId, stage: task.stageId, pipeline: task.pipelineId, status: after.status },
      },
    });
    const base = { actorId, workspaceId, taskId: task.id, unitId: task.unitId };
    notes.push({ ...base, kind: 'assigned', recipients: added(before.assignees, after.assignees) });
    notes.push({ ...base, kind: 'reviewer_added', recipients: added(before.reviewers, after.reviewers) });
    if (before.status !== 'review' && after.status === 'review') {
      notes.push(...reviewRequested(base, after.reviewers, after.reviewerTeams));
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
      notes.push({
        ...base,
        kind: verdict === 'accept' ? 'accepted' : 'rejected',
        recipients: after.assignees,
        text: excerpt(verdictComments(after.roundComments ?? [], verdict)),
      });
    }
    if (sentBack && before.status !== after.status) {
      notes.push({ ...base, kind: 'rejected', recipients: after.assignees, text: excerpt(sentBack.comment) });
    }
  }
  const webhooks = changes.flatMap((change) => taskWebhookEvents(actorId, change));
  await publishWithWebhooks(tx, { workspaceId, live, webhooks });
  await notifyAll(tx, notes);
}
