import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderLoginPage } from './login';

const template = `<!doctype html>
<html lang="en">
  <head>
    <script src="/theme-init.js"></script>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
  </head>
  <body>
    <div id="root"></div>
    <noscript>Stageline needs JavaScript.</noscript>
  </body>
</html>`;

// As in the build's prerender, which runs in Node: no document.
beforeEach(() => {
  vi.stubGlobal('document', undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('renderLoginPage', () => {
  it('puts the login card in Russian inside #root, marked for the takeover, with its styles', () => {
    const page = renderLoginPage(template, 'ru', { stylesheets: ['/assets/auth-x.css'] });
    expect(page).toContain('<html lang="ru" data-prerendered="ru"');
    expect(page).toMatch(/<div id="root"><div data-landing="ru" data-login-prerendered>.*Войти/s);
    expect(page).toContain('data-testid="login-username"');
    expect(page).toContain('data-testid="login-password"');
    expect(page).toContain('href="/reset_pass"');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/auth-x.css">');
    // The app's script stays, and so does the notice: the form needs it to sign in.
    expect(page).toContain('src="/assets/index-abc.js"');
    expect(page).toContain('needs JavaScript');
  });

  it('disables the button until the app takes over, so Enter cannot send the form natively', () => {
    const page = renderLoginPage(template, 'en');
    expect(page).toContain('Sign in');
    const submit = page.match(/<button[^>]*data-testid="login-submit"[^>]*>/)?.[0];
    expect(submit).toContain('disabled=""');
    expect(submit).toContain('type="submit"');
  });

  it("draws the theme switcher with the app's default choice, System, as a visitor who has not chosen sees it", () => {
    const page = renderLoginPage(template, 'en');
    const switcher = page.match(/<button[^>]*data-testid="theme-switcher"[^>]*>.*?<\/button>/s)?.[0];
    expect(switcher).toContain('tabler-icon-device-desktop');
    expect(switcher).not.toContain('tabler-icon-sun');
  });
});
