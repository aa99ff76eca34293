/**
 * Every route of docs/rules.md §Web, built in one place: components, e-mails and tests ask this object
 * instead of concatenating strings.
 */
type Id = number | string;

export const paths = {
  home: () => '/',
  docs: () => '/docs',
  versions: () => '/versions',
  oauth: () => '/oauth',
  /** Where a provider sends the browser back (the redirect URI registered at the provider). */
  oauthReturn: (provider: string) => `/oauth/${encodeURIComponent(provider)}`,
  logout: () => '/logout',
  login: () => '/login',
  register: () => '/register',
  resetPassword: () => '/reset_pass',
  changeEmail: () => '/change_email',
  inviteLink: (token: string) => `/i/${token}`,
  userLink: (token: string) => `/p/${token}`,
  /** The development outbox: mail the server kept instead of sending it (no SMTP_URL). */
  devOutbox: () => '/dev/outbox',
  /** A digest e-mail's unsubscribe link: sets the e-mail frequency to never. */
  unsubscribe: (token: string) => `/unsubscribe/${token}`,
  /** A client's review link: a session shared with someone without an account (docs/review-sessions.md). */
  clientReview: (token: string) => `/review/${token}`,
  app: {
    dashboard: () => '/app',
    workspaces: () => '/app/workspaces',
    workspaceCreate: () => '/app/workspaces/create',
    workspace: (workspaceId: Id) => `/app/workspaces/${workspaceId}`,
    workspaceSettings: (workspaceId: Id) => `/app/workspaces/${workspaceId}/settings`,
    /** One tab of the workspace settings (decision 205): general, people, teams, integrations, audit-log, danger-zone. */
    workspaceSettingsTab: (workspaceId: Id, tab: string) => `/app/workspaces/${workspaceId}/settings/${tab}`,
    /** People × weeks against capacity (docs/schedule.md, "Workload"). */
    workspaceWorkload: (workspaceId: Id) => `/app/workspaces/${workspaceId}/workload`,
    currentWorkspace: () => '/app/workspaces/current',
    currentWorkspaceSettings: () => '/app/workspaces/current/settings',
    profile: () => '/app/profile',
    quickstart: () => '/app/quickstart',
    notifications: () => '/app/notifications',
    time: () => '/app/time',
    task: (taskId: Id) => `/app/tasks/${taskId}`,
    projectCreate: () => '/app/projects/create',
    project: (projectId: Id) => `/app/projects/${projectId}`,
    projectEdit: (projectId: Id) => `/app/projects/${projectId}/edit`,
    pipelines: (projectId: Id) => `/app/projects/${projectId}/pipelines`,
    pipelineCreate: (projectId: Id) => `/app/projects/${projectId}/pipelines/create`,
    pipeline: (projectId: Id, pipelineId: Id) => `/app/projects/${projectId}/pipelines/${pipelineId}`,
    pipelineEdit: (projectId: Id, pipelineId: Id) => `/app/projects/${projectId}/pipelines/${pipelineId}/edit`,
    pipelineFlow: (projectId: Id, pipelineId: Id) => `/app/projects/${projectId}/pipelines/${pipelineId}/edit_flow`,
    units: (projectId: Id) => `/app/projects/${projectId}/units`,
    projectReports: (projectId: Id) => `/app/projects/${projectId}/reports`,
    /** A project's custom fields (docs/custom-fields.md). */
    projectFields: (projectId: Id) => `/app/projects/${projectId}/fields`,
    projectSchedule: (projectId: Id) => `/app/projects/${projectId}/schedule`,
    /** A project's review sessions; `?tasks=1,2,3` opens the form with those tasks picked. */
    reviewSessions: (projectId: Id) => `/app/projects/${projectId}/reviews`,
    reviewSession: (sessionId: Id) => `/app/reviews/${sessionId}`,
    unitCreate: (projectId: Id) => `/app/projects/${projectId}/units/create`,
    unitCreateMultiple: (projectId: Id) => `/app/projects/${projectId}/units/create_multiple`,
    unit: (projectId: Id, unitId: Id) => `/app/projects/${projectId}/units/${unitId}`,
    unitEdit: (projectId: Id, unitId: Id) => `/app/projects/${projectId}/units/${unitId}/edit`,
  },
} as const;

/** Browser storage keys of docs/rules.md §Web. */
export const StorageKeys = {
  authTokens: 'authTokens',
  currentWorkspace: 'current_workspace',
  lastProject: 'lastProject',
  sideBarEnabled: 'sideBarEnabled',
  language: 'language',
  theme: 'theme',
  pipelineStatePrefix: 'pipelineState_',
  /** A comment being written, per task or unit (decision 191). */
  commentDraftPrefix: 'commentDraft_',
  /** The quickstart step a user is on, so a reload resumes there (decision 197). */
  quickstartStepPrefix: 'quickstartStep_',
} as const;

/**
 * The response header naming the web build the server serves (the path of its entry script); a tab
 * running another build offers to reload (docs/decisions.md, entry 139).
 */
export const BuildHeader = 'x-stageline-build';
