import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import './app/accessibility.css';
import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { boot, checkConfig } from './app/boot';
import { Providers } from './app/providers';
import { startPreloading } from './app/routing/preload';
import { routes } from './app/routing/routes';
import { watchPrerenderedLogin } from './features/auth';
import { setOwnBuild } from './shared/api';
import { i18nReady, initI18n } from './shared/i18n';

// This tab's build: the path of this entry script, which API answers compare with theirs (decision 139).
if (import.meta.env.PROD) setOwnBuild(new URL(import.meta.url).pathname);
// On the prerendered /login page, what is typed before the app takes over is kept for its form.
watchPrerenderedLogin();
initI18n();
const router = createBrowserRouter(routes);

/**
 * Over a prerendered page (the landing page, /login), the first render waits for the route's code: the static
 * markup stays on screen instead of giving way to the loading overlay.
 */
function routeReady(): Promise<void> {
  if (!document.documentElement.hasAttribute('data-prerendered') || router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}

/**
 * Marks the page interactive once the app has committed its first render: over the prerendered
 * landing page the markup is visible before its buttons answer, and end-to-end tests wait for this
 * before they click there (docs/decisions.md, entry 44).
 */
function MarkInteractive() {
  useEffect(() => {
    document.documentElement.setAttribute('data-interactive', '');
  }, []);
  return null;
}

const booted = boot();

void Promise.all([booted, routeReady(), i18nReady()]).finally(() => {
  startPreloading(routes, (listener) => {
    let last = router.state.location.pathname;
    return router.subscribe((state) => {
      if (state.location.pathname === last) return;
      last = state.location.pathname;
      listener(last);
    });
  });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
        <MarkInteractive />
      </Providers>
    </StrictMode>,
  );
  // The config's check with zod, once the first render is under way (docs/decisions.md, entry 118).
  void booted.then(checkConfig, () => undefined);
});
