import enAudit from './locales/en/audit.json';
import enHistory from './locales/en/history.json';
import enAuth from './locales/en/auth.json';
import enCommentsApi from './locales/en/comments-api.json';
import enComments from './locales/en/comments-web.json';
import enCommon from './locales/en/common.json';
import enDigests from './locales/en/digests.json';
import enFiles from './locales/en/files.json';
import enFirstDay from './locales/en/first-day.json';
import enLanding from './locales/en/landing.json';
import enMail from './locales/en/mail.json';
import enNotifications from './locales/en/notifications-web.json';
import enOauth from './locales/en/oauth.json';
import enOnboarding from './locales/en/onboarding.json';
import enEditor from './locales/en/editor.json';
import enPipelines from './locales/en/pipelines.json';
import enProjects from './locales/en/projects.json';
import enPublic from './locales/en/public.json';
import enReports from './locales/en/reports.json';
import enReviewRounds from './locales/en/review-rounds.json';
import enSecurity from './locales/en/security.json';
import enSettingsTabs from './locales/en/settings-tabs.json';
import enIntegrations from './locales/en/integrations.json';
import enKeyboard from './locales/en/keyboard.json';
import enTasks from './locales/en/tasks.json';
import enTeams from './locales/en/teams.json';
import enWorkspaces from './locales/en/workspaces.json';
import enWorkspacesWeb from './locales/en/workspaces-web.json';
import enTime from './locales/en/time.json';
import enFields from './locales/en/fields.json';
import enSchedule from './locales/en/schedule.json';
import enReviewSessions from './locales/en/review-sessions.json';

/**
 * Translations shared by the server (error messages, e-mails) and the web app. Keys are the English
 * source strings (docs/decisions.md entry 1), so `en` maps most keys to themselves and holds the plural forms.
 * Files are split by area only to keep them readable: all merge into one namespace.
 */
export const en: Record<string, string> = {
  ...enCommon,
  ...enAuth,
  ...enAudit,
  ...enHistory,
  ...enMail,
  ...enDigests,
  ...enFiles,
  ...enFirstDay,
  ...enOauth,
  ...enCommentsApi,
  ...enComments,
  ...enNotifications,
  ...enOnboarding,
  ...enLanding,
  ...enPipelines,
  ...enEditor,
  ...enProjects,
  ...enPublic,
  ...enReports,
  ...enTasks,
  ...enTeams,
  ...enReviewRounds,
  ...enSecurity,
  ...enSettingsTabs,
  ...enIntegrations,
  ...enKeyboard,
  ...enWorkspaces,
  ...enWorkspacesWeb,
  ...enTime,
  ...enFields,
  ...enSchedule,
  ...enReviewSessions,
};
