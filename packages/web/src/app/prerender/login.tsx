import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { paths, type TLanguage } from '@stageline/shared';
import { baseI18nOptions } from '@stageline/shared/i18n';
import LoginScreen from '../../features/auth/routes/login';
import { AuthLayout } from '../layouts/auth-layout';
import { cssVariablesResolver, theme } from '../theme';
import { prerenderedDocument } from './document';

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
  const i18n = i18next.createInstance();
  void i18n.use(initReactI18next).init({ ...baseI18nOptions, lng: language, initAsync: false });
  const markup = renderToString(
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        {/* The OAuth buttons ask for the providers: no query runs here, so none are drawn yet. */}
        <QueryClientProvider client={new QueryClient()}>
          <MemoryRouter initialEntries={[paths.login()]}>
            <Routes>
              <Route element={<AuthLayout />}>
                <Route path={paths.login()} element={<LoginScreen />} />
              </Route>
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
  return prerenderedDocument(template, language, markup, { stylesheets, attributes: ' data-login-prerendered' });
}
