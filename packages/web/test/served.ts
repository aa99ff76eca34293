import {
  memberAbilities,
  taskAbilities,
  workspaceAbilities,
  type TMe,
  type TRole,
  type TTask,
  type TWorkspace,
  type TWorkspaceUser,
} from '@stageline/shared';

/**
 * Records as the server sends them, for render tests: the `abilities` a fixture leaves out are
 * computed by the same shared rules the server uses (docs/architecture.md, "Abilities").
 */

/** A task as user `userId` (Ada, 1, by default) receives it; its stage has To do on unless told. */
export function servedTask(
  task: Omit<TTask, 'abilities'> & { abilities?: TTask['abilities'] },
  { userId = 1, todoEnabled = true }: { userId?: number; todoEnabled?: boolean } = {},
): TTask {
  const { iteration } = task;
  const abilities =
    task.abilities ??
    taskAbilities({
      role: task.role,
      actor: userId,
      assignees: task.assignees.map((a) => a.id),
      state: {
        status: task.status,
        reviewers: task.reviewers.map((r) => r.id),
        iteration: iteration && {
          number: iteration.number,
          acceptedBy: iteration.accepted_by,
          rejectedBy: iteration.rejected_by,
          returnTo: iteration.return_to ?? [],
          closed: iteration.closed,
          outcome: iteration.outcome,
        },
      },
      rules: {
        todoEnabled,
        reviewMode: task.stage.review_mode,
        skipReviewIfNoReviewers: true,
        acceptEditAsDone: false,
      },
    });
  return { ...task, abilities };
}

/**
 * The render tests' usual task (as Ada receives it): task 50 of unit 3 "Shot 1" at stage 12
 * "Compositing" of pipeline 7 "Animation" in project 5 "Shorts" (workspace 7), in progress, ready,
 * nobody on it, no due date, no round yet; `patch` says what a test's scene changes.
 */
export function sampleTask(
  patch: Partial<Omit<TTask, 'abilities'>> = {},
  options?: Parameters<typeof servedTask>[1],
): TTask {
  return servedTask(
    {
      id: 50,
      unit: { id: 3, name: 'Shot 1' },
      stage: { id: 12, name: 'Compositing', review_mode: 'each_immediate' },
      pipeline: { id: 7, name: 'Animation' },
      project: { id: 5, name: 'Shorts', workspace: 7 },
      status: 'in_progress',
      ready: true,
      overdue: false,
      assignees: [],
      reviewers: [],
      due_date: null,
      use_stage_defaults: true,
      iteration: null,
      predecessors: [],
      history: [],
      role: 'member',
      ...patch,
    },
    options,
  );
}

export const servedWorkspace = (workspace: Omit<TWorkspace, 'abilities'>): TWorkspace => ({
  ...workspace,
  abilities: workspaceAbilities(workspace.role),
});

/** A member of the team list as a caller with `actorRole` sees it. */
export const servedMember = (user: Omit<TWorkspaceUser, 'abilities'>, actorRole: TRole): TWorkspaceUser => ({
  ...user,
  abilities: user.status === 'accepted' ? memberAbilities(actorRole, user.role) : { change_role: false, remove: false },
});

/** The signed-in user (Ada, 1) as users/me/ answers: every field the schema requires, `patch` over it. */
export function servedMe(patch: Partial<TMe> = {}): TMe {
  return {
    id: 1,
    username: 'ada',
    email: 'ada@example.com',
    first_name: 'Ada',
    last_name: '',
    language: 'en',
    two_factor: false,
    recent_workspace: null,
    avatar: null,
    workspaces: [],
    has_password: true,
    oauth_accounts: [],
    notify_browser: false,
    email_frequency: 'daily',
    onboarding: 'done',
    time_zone: 'UTC',
    ...patch,
  };
}
