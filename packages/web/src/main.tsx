import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { boot } from './app/boot';
import { Providers } from './app/providers';
import { routes } from './app/routing/routes';
import { initI18n } from './shared/i18n';

initI18n();
const router = createBrowserRouter(routes);

void boot().finally(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </StrictMode>,
  );
});
