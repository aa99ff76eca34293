import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { TLanguage } from '@stageline/shared';
import { baseI18nOptions } from '@stageline/shared/i18n';
import LandingScreen from '../../features/public/routes/landing';
import { PublicLayout } from '../layouts/public-layout';
import { cssVariablesResolver, theme } from '../theme';
import { escapeHtml, prerenderedDocument } from './document';

/**
 * The landing page of `language` as a whole HTML document: the built `index.html` (its styles and
 * the app's script) plus the landing chunk's `stylesheets` and, for visitors without JavaScript,
 * each scheme's rules as stylesheets of their own, with the landing's markup inside `#root`, so it paints before any
 * script runs; the app then renders the same route over it. `data-prerendered` tells theme-init.js
 * and main.tsx which language the markup is in.
 */
export function renderLandingPage(
  template: string,
  language: TLanguage,
  { stylesheets = [], withoutScript }: { stylesheets?: string[]; withoutScript?: { light: string; dark: string } } = {},
): string {
  const i18n = i18next.createInstance();
  void i18n.use(initReactI18next).init({ ...baseI18nOptions, lng: language, initAsync: false });
  const markup = renderToString(
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        {/* The header asks for the session (a visitor here: no token, no query runs). */}
        <QueryClientProvider client={new QueryClient()}>
          <MemoryRouter>
            <Routes>
              <Route element={<PublicLayout />}>
                <Route index element={<LandingScreen />} />
              </Route>
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
  const description = i18n.t(
    'Draw your process as a diagram of stages. Stageline creates a task for every unit at every stage, routes it to its reviewers and shows where each piece of work stands.',
  );
  return prerenderedDocument(template, language, markup, {
    stylesheets,
    description,
    worksWithoutScript: true,
    // Without script nothing sets the scheme attribute: light rules, then dark ones when preferred.
    head: withoutScript
      ? [
          `<noscript><link rel="stylesheet" href="${escapeHtml(withoutScript.light)}"><link rel="stylesheet" href="${escapeHtml(withoutScript.dark)}" media="(prefers-color-scheme: dark)"></noscript>`,
        ]
      : [],
  });
}
