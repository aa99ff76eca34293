import { z } from 'zod';
import { ZId, ZName } from '../validation';

/**
 * The contract of teams and review rules (docs/review-rules.md): teams of a workspace, a stage's
 * review rules and team defaults, a task's teams and its rules' progress.
 */

export const TeamLimits = { members: 500, perField: 50, teamRules: 20, requiredApprovals: 100 } as const;

/** `#rrggbb`; a new team without one gets the default. */
export const ZTeamColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, { message: 'Choose a colour as #rrggbb.' })
  .transform((v) => v.toLowerCase());
export const DefaultTeamColor = '#1c7ed6';

/** POST workspaces/{id}/teams/, PATCH teams/{id}/. */
export const ZTeamCreate = z.object({ name: ZName, color: ZTeamColor.optional() });
export const ZTeamPatch = ZTeamCreate.partial();
export type TTeamCreate = z.infer<typeof ZTeamCreate>;
export type TTeamPatch = z.infer<typeof ZTeamPatch>;

/** POST teams/{id}/members/. */
export const ZTeamMembersAdd = z.object({ users: z.array(ZId).min(1).max(TeamLimits.members) });
export const ZTeamMemberParams = z.object({ id: ZId, user: ZId });

/** A team as other records name it. */
export const ZTeamRef = z.object({ id: z.number().int(), name: z.string(), color: z.string() });
export type TTeamRef = z.infer<typeof ZTeamRef>;

export const ZTeam = ZTeamRef.extend({
  workspace: z.number().int(),
  members: z.array(z.object({ id: z.number().int(), name: z.string(), username: z.string() })),
  created_at: z.string(),
});
export type TTeam = z.infer<typeof ZTeam>;
export const ZTeamList = z.array(ZTeam);

const ZTeamIds = z.array(ZId).max(TeamLimits.perField);

/** "At least `required` approvals from `team`". */
export const ZTeamRule = z.object({ team: ZId, required: z.number().int().min(1).max(TeamLimits.requiredApprovals) });
export type TTeamRuleDto = z.infer<typeof ZTeamRule>;

/** A stage's review rules and team defaults (GET and PATCH stages/{id}/). */
export const ZStageRules = z.object({
  /** null: every reviewer in the `each_*` modes, one in `any`. */
  required_approvals: z.number().int().min(1).max(TeamLimits.requiredApprovals).nullable(),
  allow_self_review: z.boolean(),
  /** Only Admins and the owner may skip the review: set Done by hand, or make themself a reviewer of their task. */
  enforce_review: z.boolean(),
  team_rules: z.array(ZTeamRule).max(TeamLimits.teamRules),
  default_assignee_teams: ZTeamIds,
  default_reviewer_teams: ZTeamIds,
});
export type TStageReviewRules = z.infer<typeof ZStageRules>;

/** The task's teams (PATCH tasks/{id}/). */
export const ZTaskTeamsPatch = z.object({ assignee_teams: ZTeamIds, reviewer_teams: ZTeamIds }).partial();

/** One rule's progress on the task screen; `team` null is the total. */
export const ZRuleProgress = z.object({
  team: ZTeamRef.nullable(),
  approved: z.number().int(),
  required: z.number().int(),
  met: z.boolean(),
});
export type TRuleProgressDto = z.infer<typeof ZRuleProgress>;

/** What GET tasks/{id}/ adds for teams and rules. */
export const ZTaskTeams = z.object({
  assignee_teams: z.array(ZTeamRef),
  reviewer_teams: z.array(ZTeamRef),
  /** Reviewers who review only through a reviewer team (not named one by one). */
  team_reviewers: z.array(z.number().int()),
  /** Rules' progress in the latest round (empty without rules). */
  review_rules: z.array(ZRuleProgress),
  allow_self_review: z.boolean(),
  /** When the assignee last reminded the reviewers (at most once an hour). */
  reminded_at: z.string().nullable(),
});
