import { paths, type TLanguage } from '@stageline/shared';
import LoginScreen from '../../features/auth/routes/login';
import { AuthLayout } from '../layouts/auth-layout';
import { prerenderedDocument } from './document';
import { renderScreen } from './render-screen';

/**
 * The `/login` page of `language` as a whole HTML document, for the server to send so the form
 * paints before the app's script runs: the same layout and screen the app renders, in the built
 * `index.html` with the auth chunks' `stylesheets`. Its button is disabled until the app takes over;
 * what is typed meanwhile carries over (features/auth/lib/prerendered-login.ts).
 */
export function renderLoginPage(
  template: string,
  language: TLanguage,
  { stylesheets = [] }: { stylesheets?: string[] } = {},
): string {
  const { markup } = renderScreen(language, { path: paths.login(), layout: <AuthLayout />, screen: <LoginScreen /> });
  return prerenderedDocument(template, language, markup, { stylesheets, attributes: ' data-login-prerendered' });
}
