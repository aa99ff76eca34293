import type { InitOptions } from 'i18next';
import { DefaultLanguage, Languages } from '../languages';
import enAuth from './locales/en/auth.json';
import enCommentsApi from './locales/en/comments-api.json';
import enComments from './locales/en/comments-web.json';
import enCommon from './locales/en/common.json';
import enDigests from './locales/en/digests.json';
import enLanding from './locales/en/landing.json';
import enMail from './locales/en/mail.json';
import enNotifications from './locales/en/notifications-web.json';
import enOauth from './locales/en/oauth.json';
import enOnboarding from './locales/en/onboarding.json';
import enPipelines from './locales/en/pipelines.json';
import enProjects from './locales/en/projects.json';
import enPublic from './locales/en/public.json';
import enReviewRounds from './locales/en/review-rounds.json';
import enSecurity from './locales/en/security.json';
import enIntegrations from './locales/en/integrations.json';
import enKeyboard from './locales/en/keyboard.json';
import enTasks from './locales/en/tasks.json';
import enWorkspaces from './locales/en/workspaces.json';
import enWorkspacesWeb from './locales/en/workspaces-web.json';
import ruAuth from './locales/ru/auth.json';
import ruCommentsApi from './locales/ru/comments-api.json';
import ruComments from './locales/ru/comments-web.json';
import ruCommon from './locales/ru/common.json';
import ruDigests from './locales/ru/digests.json';
import ruLanding from './locales/ru/landing.json';
import ruMail from './locales/ru/mail.json';
import ruNotifications from './locales/ru/notifications-web.json';
import ruOauth from './locales/ru/oauth.json';
import ruOnboarding from './locales/ru/onboarding.json';
import ruPipelines from './locales/ru/pipelines.json';
import ruProjects from './locales/ru/projects.json';
import ruPublic from './locales/ru/public.json';
import ruReviewRounds from './locales/ru/review-rounds.json';
import ruSecurity from './locales/ru/security.json';
import ruIntegrations from './locales/ru/integrations.json';
import ruKeyboard from './locales/ru/keyboard.json';
import ruTasks from './locales/ru/tasks.json';
import ruWorkspaces from './locales/ru/workspaces.json';
import ruWorkspacesWeb from './locales/ru/workspaces-web.json';

/**
 * Translations shared by the server (error messages, e-mails) and the web app. Keys are the English
 * source strings (docs/decisions.md entry 1), so `en` maps most keys to themselves and holds the plural forms.
 * Files are split by area only to keep them readable: all merge into one namespace.
 */
export const en: Record<string, string> = {
  ...enCommon,
  ...enAuth,
  ...enMail,
  ...enDigests,
  ...enOauth,
  ...enCommentsApi,
  ...enComments,
  ...enNotifications,
  ...enOnboarding,
  ...enLanding,
  ...enPipelines,
  ...enProjects,
  ...enPublic,
  ...enTasks,
  ...enReviewRounds,
  ...enSecurity,
  ...enIntegrations,
  ...enKeyboard,
  ...enWorkspaces,
  ...enWorkspacesWeb,
};
export const ru: Record<string, string> = {
  ...ruCommon,
  ...ruAuth,
  ...ruMail,
  ...ruDigests,
  ...ruOauth,
  ...ruCommentsApi,
  ...ruComments,
  ...ruNotifications,
  ...ruOnboarding,
  ...ruLanding,
  ...ruPipelines,
  ...ruProjects,
  ...ruPublic,
  ...ruTasks,
  ...ruReviewRounds,
  ...ruSecurity,
  ...ruIntegrations,
  ...ruKeyboard,
  ...ruWorkspaces,
  ...ruWorkspacesWeb,
};

export const resources = {
  en: { translation: en },
  ru: { translation: ru },
} as const;

/** The i18next options both sides start from. */
export const baseI18nOptions = {
  resources,
  supportedLngs: [...Languages],
  nonExplicitSupportedLngs: true,
  load: 'languageOnly',
  fallbackLng: DefaultLanguage,
  keySeparator: false,
  nsSeparator: false,
  returnNull: false,
  returnEmptyString: false,
  interpolation: { escapeValue: false },
} satisfies InitOptions;
