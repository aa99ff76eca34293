import type { InitOptions } from 'i18next';
import { DefaultLanguage, Languages } from '../languages';
import enAuth from './locales/en/auth.json';
import enCommon from './locales/en/common.json';
import enMail from './locales/en/mail.json';
import enOauth from './locales/en/oauth.json';
import enPipelines from './locales/en/pipelines.json';
import enProjects from './locales/en/projects.json';
import enPublic from './locales/en/public.json';
import enTasks from './locales/en/tasks.json';
import enWorkspaces from './locales/en/workspaces.json';
import enWorkspacesWeb from './locales/en/workspaces-web.json';
import ruAuth from './locales/ru/auth.json';
import ruCommon from './locales/ru/common.json';
import ruMail from './locales/ru/mail.json';
import ruOauth from './locales/ru/oauth.json';
import ruPipelines from './locales/ru/pipelines.json';
import ruProjects from './locales/ru/projects.json';
import ruPublic from './locales/ru/public.json';
import ruTasks from './locales/ru/tasks.json';
import ruWorkspaces from './locales/ru/workspaces.json';
import ruWorkspacesWeb from './locales/ru/workspaces-web.json';

/**
 * Translations shared by the server (error messages, e-mails) and the web app. Keys are the English
 * source strings of product.md, so `en` maps most keys to themselves and holds the plural forms.
 * Files are split by area only to keep them readable: all merge into one namespace.
 */
export const en: Record<string, string> = {
  ...enCommon,
  ...enAuth,
  ...enMail,
  ...enOauth,
  ...enPipelines,
  ...enProjects,
  ...enPublic,
  ...enTasks,
  ...enWorkspaces,
  ...enWorkspacesWeb,
};
export const ru: Record<string, string> = {
  ...ruCommon,
  ...ruAuth,
  ...ruMail,
  ...ruOauth,
  ...ruPipelines,
  ...ruProjects,
  ...ruPublic,
  ...ruTasks,
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
