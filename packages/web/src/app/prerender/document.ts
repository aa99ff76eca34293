import type { TLanguage } from '@stageline/shared';

/** Escapes text for an HTML attribute or element. */
export const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export type TPageOptions = {
  /** Stylesheets of the page's lazy chunks, which the built index.html does not link. */
  stylesheets?: string[];
  /** The page's description for search engines, in its language. */
  description?: string;
  /** Extra tags for the end of `<head>`. */
  head?: string[];
  /** Whether the page works without script (the "needs JavaScript" notice goes). */
  worksWithoutScript?: boolean;
};

/**
 * A prerendered page as a whole HTML document: the built `index.html` (its styles and the app's
 * script) with `markup` inside `#root`, so it paints before any script runs, and the app renders the
 * same route over it. `data-prerendered` tells theme-init.js and main.tsx the markup's language; the
 * markup's wrapper carries `data-landing` (and `attributes`), which theme-init.js hides when the app
 * will show another language.
 */
export function prerenderedDocument(
  template: string,
  language: TLanguage,
  markup: string,
  {
    stylesheets = [],
    description,
    head = [],
    worksWithoutScript = false,
    attributes = '',
  }: TPageOptions & { attributes?: string },
): string {
  let page = template.replace(/<html lang="[^"]*"/, `<html lang="${language}" data-prerendered="${language}"`);
  if (description !== undefined) {
    page = page.replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/>/,
      () => `<meta name="description" content="${escapeHtml(description)}" />`,
    );
  }
  page = page.replace('</head>', () =>
    [
      ...stylesheets.map((href) => `<link rel="stylesheet" crossorigin href="${escapeHtml(href)}">`),
      '<style>html[data-landing-stale] [data-landing]{visibility:hidden}</style>',
      ...head,
      '</head>',
    ].join(''),
  );
  if (worksWithoutScript) page = page.replace(/<noscript>[^<]*<\/noscript>/, '');
  // Replacer functions: the markup is inserted as is, never read as `$&`-style patterns.
  return page.replace(
    '<div id="root"></div>',
    () => `<div id="root"><div data-landing="${language}"${attributes}>${markup}</div></div>`,
  );
}
