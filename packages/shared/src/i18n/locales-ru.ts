import ruAudit from './locales/ru/audit.json';
import ruHistory from './locales/ru/history.json';
import ruAuth from './locales/ru/auth.json';
import ruCommentsApi from './locales/ru/comments-api.json';
import ruComments from './locales/ru/comments-web.json';
import ruCommon from './locales/ru/common.json';
import ruDigests from './locales/ru/digests.json';
import ruFiles from './locales/ru/files.json';
import ruFirstDay from './locales/ru/first-day.json';
import ruLanding from './locales/ru/landing.json';
import ruMail from './locales/ru/mail.json';
import ruNotifications from './locales/ru/notifications-web.json';
import ruOauth from './locales/ru/oauth.json';
import ruOnboarding from './locales/ru/onboarding.json';
import ruEditor from './locales/ru/editor.json';
import ruPipelines from './locales/ru/pipelines.json';
import ruProjects from './locales/ru/projects.json';
import ruPublic from './locales/ru/public.json';
import ruReports from './locales/ru/reports.json';
import ruReviewRounds from './locales/ru/review-rounds.json';
import ruSecurity from './locales/ru/security.json';
import ruSettingsTabs from './locales/ru/settings-tabs.json';
import ruIntegrations from './locales/ru/integrations.json';
import ruKeyboard from './locales/ru/keyboard.json';
import ruTasks from './locales/ru/tasks.json';
import ruTeams from './locales/ru/teams.json';
import ruWorkspaces from './locales/ru/workspaces.json';
import ruWorkspacesWeb from './locales/ru/workspaces-web.json';
import ruTime from './locales/ru/time.json';
import ruFields from './locales/ru/fields.json';
import ruSchedule from './locales/ru/schedule.json';
import ruReviewSessions from './locales/ru/review-sessions.json';

/** The Russian translations (see locales-en.ts); the web app loads them only for a Russian reader. */
export const ru: Record<string, string> = {
  ...ruCommon,
  ...ruAuth,
  ...ruAudit,
  ...ruHistory,
  ...ruMail,
  ...ruDigests,
  ...ruFiles,
  ...ruFirstDay,
  ...ruOauth,
  ...ruCommentsApi,
  ...ruComments,
  ...ruNotifications,
  ...ruOnboarding,
  ...ruLanding,
  ...ruPipelines,
  ...ruEditor,
  ...ruProjects,
  ...ruPublic,
  ...ruReports,
  ...ruTasks,
  ...ruTeams,
  ...ruReviewRounds,
  ...ruSecurity,
  ...ruSettingsTabs,
  ...ruIntegrations,
  ...ruKeyboard,
  ...ruWorkspaces,
  ...ruWorkspacesWeb,
  ...ruTime,
  ...ruFields,
  ...ruSchedule,
  ...ruReviewSessions,
};
