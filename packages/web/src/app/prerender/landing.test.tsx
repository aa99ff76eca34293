import { describe, expect, it } from 'vitest';
import { renderLandingPage } from './landing';

const template = `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="old" />
    <script src="/theme-init.js"></script>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
    <noscript>Stageline needs JavaScript.</noscript>
  </body>
</html>`;

describe('renderLandingPage', () => {
  it('puts the landing in Russian inside #root, with its language, styles and the no-script schemes', () => {
    const page = renderLandingPage(template, 'ru', {
      stylesheets: ['/assets/landing-x.css'],
      withoutScript: { light: '/landing/light.css', dark: '/landing/dark.css' },
    });
    expect(page).toContain('<html lang="ru" data-prerendered="ru"');
    expect(page).toMatch(/<div id="root"><div data-landing="ru">.*Работа, которая проходит через этапы/s);
    expect(page).toContain('href="/register"');
    expect(page).toContain('href="/login"');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/landing-x.css">');
    expect(page).toContain('<link rel="stylesheet" href="/landing/dark.css" media="(prefers-color-scheme: dark)">');
    expect(page).toContain('<meta name="description" content="Нарисуйте процесс');
    // The app's script stays; the "needs JavaScript" notice goes, the page works without it.
    expect(page).toContain('src="/assets/index-abc.js"');
    expect(page).not.toContain('needs JavaScript');
  });

  it('renders English the same way', () => {
    const page = renderLandingPage(template, 'en');
    expect(page).toContain('<html lang="en" data-prerendered="en"');
    expect(page).toContain('Work that flows through stages, with a review at every step.');
    expect(page).not.toContain('<noscript><link');
  });
});
