import { sql, type SQL } from 'drizzle-orm';
import type { TIteration, TReviewMode, TReviewRules, TStageRules } from '@stageline/shared';
import { rulesOf } from './create';
import { effectiveTeamRows, reviewRulesFrom, type StageReview } from './teams';

/**
 * Everything the engine and the task screen need of one task beyond its row — its stage's rules,
 * its effective people and teams, the members of those teams, the latest round — as columns of the
 * statement that reads the row (docs/architecture.md, "Statements"): the row lock of an action and
 * the read of a task each take one statement, whatever the task's teams and rules.
 *
 * The fragments expect the task as `tk` (no inner query uses that alias) and the workspace as an
 * expression, so a correlated subquery reaches the outer row.
 */

/** Where a task lives: its unit, stage, pipeline, project and workspace. */
export type TaskScope = {
  taskId: number;
  unitId: number;
  stageId: number;
  pipelineId: number;
  projectId: number;
  workspaceId: number;
};

/** The columns of a task row, named as Drizzle names them (`TaskRow`). */
export const taskRowColumns = sql.raw(
  `tk.id, tk.unit_id as "unitId", tk.stage_id as "stageId", tk.pipeline_id as "pipelineId", tk.status,
  tk.use_stage_defaults as "useStageDefaults", tk.due_date as "dueDate", tk.ready_at as "readyAt",
  tk.effective_due as "effectiveDue", tk.iteration_number as "iterationNumber",
  tk.reminded_at as "remindedAt", tk.created_at as "createdAt", tk.updated_at as "updatedAt"`,
);

/**
 * Rows (task_id, which, id) of the effective people and teams of the tasks `ids`: 'a' and 'r' for
 * assignees and reviewers who are current members of the workspace (the stage's defaults while
 * `use_stage_defaults`, else the task's own), 'ta' and 'tr' for the assignee and reviewer teams.
 */
export const effectivePeopleRows = (ids: SQL, workspaceId: SQL) => sql`
    select p.task_id, p.which, p.user_id as id from (
      select t.id as task_id, 'a' as which, d.user_id from tasks t join stage_default_assignees d on d.stage_id = t.stage_id
        where t.id in (${ids}) and t.use_stage_defaults
      union all
      select t.id, 'r', d.user_id from tasks t join stage_default_reviewers d on d.stage_id = t.stage_id
        where t.id in (${ids}) and t.use_stage_defaults
      union all
      select t.id, 'a', o.user_id from tasks t join task_assignees o on o.task_id = t.id
        where t.id in (${ids}) and not t.use_stage_defaults
      union all
      select t.id, 'r', o.user_id from tasks t join task_reviewers o on o.task_id = t.id
        where t.id in (${ids}) and not t.use_stage_defaults
    ) p join memberships m on m.user_id = p.user_id and m.workspace_id = ${workspaceId}
    union all
    select q.task_id, 't' || q.which, q.team_id from (${effectiveTeamRows(ids)}) q`;

/** The teams a task's screen and rules name: its effective teams and its stage's rule teams. */
const teamsOfTask = sql`select q.team_id from (${effectiveTeamRows(sql`tk.id`)}) q
    union select r.team_id from stage_team_rules r where r.stage_id = tk.stage_id`;

/** The context columns of the task `tk` in the workspace `workspaceId` (see `TaskContext`). */
export const taskContextColumns = (workspaceId: SQL) => sql`
  (select json_build_object('name', s.name, 'reviewMode', s.review_mode, 'todoEnabled', s.todo_enabled,
      'skipReviewIfNoReviewers', s.skip_review_if_no_reviewers, 'acceptEditAsDone', s.accept_edit_as_done,
      'requiredApprovals', s.required_approvals, 'allowSelfReview', s.allow_self_review,
      'enforceReview', s.enforce_review,
      'predecessors', coalesce((select json_agg(e.source_id order by e.source_id) from stage_edges e
        join stages ps on ps.id = e.source_id and ps.kind = 'stage' where e.target_id = s.id), '[]'),
      'teamRules', coalesce((select json_agg(json_build_object('team', r.team_id, 'required', r.required)
        order by r.team_id) from stage_team_rules r where r.stage_id = s.id), '[]'))
    from stages s where s.id = tk.stage_id) as "stage",
  (select coalesce(json_agg(json_build_array(q.which, q.id) order by q.which, q.id), '[]')
    from (${effectivePeopleRows(sql`tk.id`, workspaceId)}) q) as "effective",
  (select coalesce(json_agg(json_build_array(tm.team_id, tm.user_id) order by tm.user_id), '[]')
    from team_members tm join memberships m on m.user_id = tm.user_id and m.workspace_id = ${workspaceId}
    where tm.team_id in (${teamsOfTask})) as "members",
  (select coalesce(json_agg(json_build_object('id', tt.id, 'name', tt.name, 'color', tt.color)), '[]')
    from teams tt where tt.id in (${teamsOfTask})) as "teams",
  (select json_build_object('number', i.number, 'returnTo', i.return_to, 'closed', i.closed, 'outcome', i.outcome,
      'reactions', coalesce((select json_agg(json_build_array(r.user_id, r.verdict) order by r.created_at, r.user_id)
        from task_reactions r where r.task_id = i.task_id and r.iteration = i.number), '[]'),
      'comments', coalesce((select json_agg(json_build_array(h.action, h.comment) order by h.id)
        from task_history h where h.task_id = i.task_id and h.iteration = i.number
          and h.action in ('accept', 'reject') and h.comment is not null), '[]'))
    from task_iterations i where i.task_id = tk.id and i.number = tk.iteration_number) as "iteration"`;

/** What `taskContextColumns` answer, as the driver hands them over. */
export type TaskContextColumns = {
  stage: {
    name: string;
    reviewMode: TReviewMode;
    todoEnabled: boolean;
    skipReviewIfNoReviewers: boolean;
    acceptEditAsDone: boolean;
    requiredApprovals: number | null;
    allowSelfReview: boolean;
    enforceReview: boolean;
    predecessors: number[];
    teamRules: { team: number; required: number }[];
  } | null;
  /** Rows of `effectivePeopleRows` as `[which, id]`. */
  effective: [string, number][];
  members: [number, number][];
  teams: { id: number; name: string; color: string }[];
  iteration: {
    number: number;
    returnTo: number[];
    closed: boolean;
    outcome: TIteration['outcome'];
    reactions: [number, string][];
    comments: [string, string][];
  } | null;
};

/**
 * A task's effective people. Teams and review rules: its effective teams, and `throughTeams`, the
 * reviewers who are reviewers only through a reviewer team, with those teams' ids.
 */
export type EffectivePeople = {
  assignees: number[];
  reviewers: number[];
  assigneeTeams: number[];
  reviewerTeams: number[];
  throughTeams: Map<number, number[]>;
};

export const noPeople = (): EffectivePeople => ({
  assignees: [],
  reviewers: [],
  assigneeTeams: [],
  reviewerTeams: [],
  throughTeams: new Map(),
});

const lists = { a: 'assignees', r: 'reviewers', ta: 'assigneeTeams', tr: 'reviewerTeams' } as const;

/** Adds one row of `effectivePeopleRows` to a task's people. */
export function addPeopleRow(people: EffectivePeople, which: string, id: number): void {
  const list = lists[which as keyof typeof lists];
  if (list) people[list].push(id);
}

/**
 * Teams and review rules (docs/review-rules.md): the members of a task's reviewer teams (but its
 * assignees) added to its reviewers, remembering through which team.
 */
export function addTeamReviewers(entry: EffectivePeople, members: ReadonlyMap<number, readonly number[]>): void {
  const own = new Set(entry.reviewers);
  for (const team of entry.reviewerTeams) {
    for (const userId of members.get(team) ?? []) {
      if (entry.assignees.includes(userId) || own.has(userId)) continue;
      entry.throughTeams.set(userId, [...(entry.throughTeams.get(userId) ?? []), team]);
    }
  }
  entry.reviewers = [...own, ...entry.throughTeams.keys()].sort((a, b) => a - b);
}

/** The context of one task, ready for the engine and the task screen. */
export type TaskContext = {
  stageName: string;
  rules: TStageRules;
  /** The stage's direct predecessor stages (the engine's `return_to` targets). */
  predecessors: number[];
  review: StageReview;
  people: EffectivePeople;
  /** Current workspace members of the task's teams and its stage's rule teams, by team. */
  members: Map<number, number[]>;
  teams: Map<number, { id: number; name: string; color: string }>;
  reviewRules: TReviewRules;
  iteration: TIteration | null;
  /** The comments given with the latest round's reactions, in order (`[verdict, comment]`). */
  roundComments: [string, string][];
};

/** Reads the context columns of one task; null when its stage is gone. */
export function taskContextOf(columns: TaskContextColumns): TaskContext | null {
  const { stage, iteration } = columns;
  if (!stage) return null;
  const members = new Map<number, number[]>();
  for (const [team, user] of columns.members) members.set(team, [...(members.get(team) ?? []), user]);
  const people = noPeople();
  for (const [which, id] of columns.effective) addPeopleRow(people, which, id);
  addTeamReviewers(people, members);
  const review: StageReview = {
    requiredApprovals: stage.requiredApprovals,
    allowSelfReview: stage.allowSelfReview,
    enforceReview: stage.enforceReview,
    teamRules: stage.teamRules,
  };
  return {
    stageName: stage.name,
    rules: rulesOf(stage),
    predecessors: stage.predecessors,
    review,
    people,
    members,
    teams: new Map(columns.teams.map((team) => [team.id, team])),
    reviewRules: reviewRulesFrom(review, people.assignees, members),
    iteration: iteration && {
      number: iteration.number,
      acceptedBy: iteration.reactions.filter(([, verdict]) => verdict === 'accept').map(([id]) => id),
      rejectedBy: iteration.reactions.filter(([, verdict]) => verdict === 'reject').map(([id]) => id),
      returnTo: iteration.returnTo,
      closed: iteration.closed,
      outcome: iteration.outcome ?? null,
    },
    roundComments: iteration?.comments ?? [],
  };
}
