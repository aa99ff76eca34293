import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next, { type i18n as TI18n } from 'i18next';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { TLanguage } from '@stageline/shared';
import { baseI18nOptions } from '@stageline/shared/i18n';
import { cssVariablesResolver, defaultColorScheme, theme } from '../theme';

/**
 * One screen of the app rendered to HTML in `language`, inside its layout at `path`, with the
 * app's providers (the app's default scheme, so the theme switcher shows the icon most visitors
 * will see; theme-init.js sets the scheme itself before the page paints).
 * No query runs while rendering to a string, so what waits for one (the header's session, the
 * OAuth providers) draws nothing yet. Returns the markup and the translations used, for the page's
 * other texts.
 */
export function renderScreen(
  language: TLanguage,
  { path, layout, screen }: { path: string; layout: ReactElement; screen: ReactElement },
): { markup: string; i18n: TI18n } {
  const i18n = i18next.createInstance();
  // Not `use(initReactI18next)`: that would make this instance the process's default, which the
  // provider below makes needless (and, in tests sharing modules, the next file's language).
  void i18n.init({ ...baseI18nOptions, lng: language, initAsync: false });
  const markup = renderToString(
    <I18nextProvider i18n={i18n}>
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        defaultColorScheme={defaultColorScheme}
      >
        <QueryClientProvider client={new QueryClient()}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route element={layout}>
                <Route path={path} element={screen} />
              </Route>
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>,
  );
  return { markup, i18n };
}
