import { paths, type TLanguage } from '@stageline/shared';
import LandingScreen from '../../features/public/routes/landing';
import { PublicLayout } from '../layouts/public-layout';
import { escapeHtml, prerenderedDocument } from './document';
import { renderScreen } from './render-screen';

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
  const { markup, i18n } = renderScreen(language, {
    path: paths.home(),
    layout: <PublicLayout />,
    screen: <LandingScreen />,
  });
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
