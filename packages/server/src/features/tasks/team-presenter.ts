import { hasReviewRules, ruleProgress, type TTask } from '@stageline/shared';
import type { Actor } from '../workspaces';
import type { TaskContext } from './context';
import type { TaskRow } from './state';

type TaskTeamsDto = Required<
  Pick<
    TTask,
    'assignee_teams' | 'reviewer_teams' | 'team_reviewers' | 'review_rules' | 'allow_self_review' | 'reminded_at'
  >
>;

/**
 * What GET tasks/{id}/ says of teams and review rules (docs/review-rules.md): the task's teams, each
 * rule's progress in the latest round, and whether the caller may take it from a team queue (for the
 * task's abilities, `queueMember`). Everything comes with the task's context.
 */
export function presentTaskTeams({ actor, task, context }: { actor: Actor; task: TaskRow; context: TaskContext }): {
  dto: TaskTeamsDto;
  queueMember: boolean;
} {
  const { people, reviewRules, teams, iteration, review, rules } = context;
  const ref = (id: number) => teams.get(id) ?? { id, name: '', color: '' };
  const progress = hasReviewRules(reviewRules)
    ? ruleProgress(rules.reviewMode, people.reviewers, iteration ?? { acceptedBy: [], rejectedBy: [] }, reviewRules)
    : [];
  const queueMember = people.assigneeTeams.some((team) => context.members.get(team)?.includes(actor.userId));
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
  return { dto, queueMember };
}
