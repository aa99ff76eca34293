import {
  hasReviewRules,
  ruleProgress,
  type TIteration,
  type TReviewRules,
  type TRuleMode,
  type TTask,
} from '@stageline/shared';
import type { Db } from '../../db';
import type { Actor } from '../workspaces';
import type { EffectivePeople, TaskRow } from './state';
import { membersOfTeams, reviewRulesOf, teamNames, type StageReview } from './teams';

type TaskTeamsDto = Required<
  Pick<
    TTask,
    'assignee_teams' | 'reviewer_teams' | 'team_reviewers' | 'review_rules' | 'allow_self_review' | 'reminded_at'
  >
>;

/**
 * What GET tasks/{id}/ says of teams and review rules (docs/review-rules.md): the task's teams, each
 * rule's progress in the latest round, and what the caller may do — take it from a team queue,
 * remind its reviewers — for the task's abilities (`queueMember`).
 */
export async function presentTaskTeams(
  db: Db,
  {
    actor,
    workspaceId,
    task,
    mode,
    people,
    iteration,
    review,
  }: {
    actor: Actor;
    workspaceId: number;
    task: TaskRow;
    mode: string;
    people: EffectivePeople;
    iteration: TIteration | null;
    /** The stage's review rules as stored (from the pipeline's graph). */
    review: StageReview;
  },
): Promise<{ dto: TaskTeamsDto; reviewRules: TReviewRules; queueMember: boolean }> {
  const rules = await reviewRulesOf(db, workspaceId, review, people.assignees);
  const names = await teamNames(db, [
    ...people.assigneeTeams,
    ...people.reviewerTeams,
    ...rules.teamRules.map((r) => r.team),
  ]);
  const ref = (id: number) => names.get(id) ?? { id, name: '', color: '' };
  const progress = hasReviewRules(rules)
    ? ruleProgress(mode as TRuleMode, people.reviewers, iteration ?? { acceptedBy: [], rejectedBy: [] }, rules)
    : [];
  const queueMembers = await membersOfTeams(db, workspaceId, people.assigneeTeams);
  const queueMember = [...queueMembers.values()].some((ids) => ids.includes(actor.userId));
  const dto: TaskTeamsDto = {
    assignee_teams: people.assigneeTeams.map(ref),
    reviewer_teams: people.reviewerTeams.map(ref),
    team_reviewers: [...people.throughTeams.keys()],
    review_rules: progress.map((p) => ({
      team: p.team === null ? null : ref(p.team),
      approved: p.approved,
      required: p.required,
      met: p.met,
    })),
    allow_self_review: review.allowSelfReview,
    reminded_at: task.remindedAt?.toISOString() ?? null,
  };
  return { dto, reviewRules: rules, queueMember };
}
