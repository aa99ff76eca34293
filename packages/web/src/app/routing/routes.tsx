import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { ClientConstants, paths } from '@stageline/shared';
import { RootLayout } from '../layouts/root-layout';
import { NotFoundScreen } from '../screens/not-found-screen';
import { BootLoader } from '../screens/boot-loader';
import { RouteErrorScreen } from '../screens/route-error-screen';
import type { TRouteHandle } from './crumbs';
import { lazyComponent, lazyScreen, withTimeout } from './lazy-screen';
import type { recordCrumbs } from './record-crumbs';

/** The last crumb of edit screens: a noun where the language has one ('Edit_screen'), not the button's verb. */
const edit: TRouteHandle = { crumb: (_params, t) => ({ label: t('Edit', { context: 'screen' }) }) };
const reports: TRouteHandle = { crumb: (_params, t) => ({ label: t('Reports') }) };
const schedule: TRouteHandle = { crumb: (_params, t) => ({ label: t('Schedule') }) };

/**
 * A record route's breadcrumb handle, loaded with the route (`record-crumbs.tsx`): the crumbs read
 * the record's query, and its API and schemas need not be in the app's entry.
 */
function crumbHandle(record: keyof typeof recordCrumbs) {
  return async () => ({
    handle: (await withTimeout(import('./record-crumbs'), ClientConstants.chunkLoadTimeoutMs)).recordCrumbs[
      record
    ] as TRouteHandle,
  });
}

/** A screen's `lazy` loader with its route's breadcrumb handle (both chunks fetched side by side). */
function screenWithCrumbs(record: keyof typeof recordCrumbs, load: () => Promise<{ default: ComponentType }>) {
  return async () => {
    const [screen, crumbs] = await Promise.all([lazyScreen(load)(), crumbHandle(record)()]);
    return { ...screen, ...crumbs };
  };
}

/**
 * Every route of docs/rules.md §Web. Each screen and each layout but the root is a lazily loaded
 * chunk, fetched side by side when a URL matches, so /login does not load the app's shell
 * (docs/decisions.md, "Web speed").
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteErrorScreen />,
    hydrateFallbackElement: <BootLoader />,
    children: [
      { path: 'logout', lazy: lazyScreen(() => import('../../features/auth/routes/logout')) },
      // A client's review link: no account, no app shell (docs/review-sessions.md).
      {
        path: 'review/:token',
        lazy: lazyScreen(() => import('../../features/review-sessions/routes/client-review')),
      },
      {
        lazy: lazyComponent(async () => (await import('../layouts/public-layout')).PublicLayout),
        children: [
          { index: true, lazy: lazyScreen(() => import('../../features/public/routes/landing')) },
          { path: 'docs', lazy: lazyScreen(() => import('../../features/public/routes/docs')) },
          { path: 'docs/:page', lazy: lazyScreen(() => import('../../features/public/routes/docs')) },
          { path: 'versions', lazy: lazyScreen(() => import('../../features/public/routes/versions')) },
          { path: 'dev/outbox', lazy: lazyScreen(() => import('../../features/mail/routes/dev-outbox')) },
          {
            lazy: lazyComponent(async () => (await import('../layouts/public-layout')).PublicCardPage),
            children: [
              {
                path: 'unsubscribe/:token',
                lazy: lazyScreen(() => import('../../features/digests/routes/unsubscribe')),
              },
              {
                // Accepting a link and confirming an e-mail act for a user: they require a session.
                // A lazy route: the guard reads users/me/ through TanStack Query, not on the first load.
                lazy: lazyScreen(() => import('../../features/auth/routes/session-guard')),
                children: [
                  { path: 'i/:token', lazy: lazyScreen(() => import('../../features/workspaces/routes/invite-link')) },
                  { path: 'p/:token', lazy: lazyScreen(() => import('../../features/workspaces/routes/user-link')) },
                  { path: 'change_email', lazy: lazyScreen(() => import('../../features/auth/routes/change-email')) },
                ],
              },
            ],
          },
        ],
      },
      {
        lazy: lazyComponent(async () => (await import('../layouts/auth-layout')).AuthLayout),
        children: [
          { path: 'login', lazy: lazyScreen(() => import('../../features/auth/routes/login')) },
          { path: 'register', lazy: lazyScreen(() => import('../../features/auth/routes/register')) },
          { path: 'reset_pass', lazy: lazyScreen(() => import('../../features/auth/routes/reset-password')) },
          // Where providers send the browser back; /oauth/{provider} is the registered redirect URI.
          { path: 'oauth', lazy: lazyScreen(() => import('../../features/auth/routes/oauth-return')) },
          { path: 'oauth/:provider', lazy: lazyScreen(() => import('../../features/auth/routes/oauth-return')) },
        ],
      },
      // The quickstart has its own page (no sidebar) and lets a signed-out visitor sign up in place.
      { path: 'app/quickstart', lazy: lazyScreen(() => import('../../features/onboarding/routes/quickstart')) },
      {
        path: 'app',
        lazy: lazyComponent(async () => (await import('../layouts/app-layout')).AppLayout),
        children: [
          { index: true, lazy: lazyScreen(() => import('../../features/dashboard/routes/dashboard')) },
          { path: 'workspaces', lazy: lazyScreen(() => import('../../features/workspaces/routes/workspace-list')) },
          {
            path: 'workspaces/create',
            lazy: lazyScreen(() => import('../../features/workspaces/routes/workspace-create')),
          },
          { path: 'workspaces/current', element: <Navigate to={paths.app.dashboard()} replace /> },
          {
            path: 'workspaces/current/settings',
            lazy: lazyScreen(() => import('../../features/workspaces/routes/current-workspace-settings')),
          },
          {
            path: 'workspaces/:workspaceId',
            lazy: lazyScreen(() => import('./workspace-screen')),
          },
          {
            path: 'workspaces/:workspaceId/workload',
            lazy: lazyScreen(() => import('../../features/schedule/routes/workload')),
          },
          {
            path: 'workspaces/:workspaceId/settings',
            lazy: lazyScreen(() => import('../../features/workspaces/routes/workspace-settings')),
          },
          {
            path: 'workspaces/:workspaceId/settings/:tab',
            lazy: lazyScreen(() => import('../../features/workspaces/routes/workspace-settings')),
          },
          { path: 'profile', lazy: lazyScreen(() => import('../../features/profile/routes/profile')) },
          { path: 'time', lazy: lazyScreen(() => import('../../features/time/routes/timesheet')) },
          {
            path: 'notifications',
            lazy: lazyScreen(() => import('../../features/notifications/routes/notifications')),
          },
          {
            path: 'tasks/:taskId',
            lazy: screenWithCrumbs('task', () => import('../../features/tasks/routes/task')),
          },
          {
            path: 'reviews/:sessionId',
            lazy: lazyScreen(() => import('../../features/review-sessions/routes/session')),
          },
          { path: 'projects/create', lazy: lazyScreen(() => import('../../features/projects/routes/project-create')) },
          {
            path: 'projects/:projectId',
            lazy: crumbHandle('project'),
            children: [
              { index: true, lazy: lazyScreen(() => import('./project-screen')) },
              {
                path: 'edit',
                handle: edit,
                lazy: lazyScreen(() => import('../../features/projects/routes/project-edit')),
              },
              { path: 'pipelines', lazy: lazyScreen(() => import('../../features/pipelines/routes/pipeline-list')) },
              {
                path: 'pipelines/create',
                lazy: lazyScreen(() => import('../../features/pipelines/routes/pipeline-create')),
              },
              {
                path: 'pipelines/:pipelineId',
                lazy: crumbHandle('pipeline'),
                children: [
                  { index: true, lazy: lazyScreen(() => import('./pipeline-screen')) },
                  {
                    path: 'edit',
                    handle: edit,
                    lazy: lazyScreen(() => import('../../features/pipelines/routes/pipeline-edit')),
                  },
                  {
                    path: 'edit_flow',
                    handle: edit,
                    lazy: lazyScreen(() => import('../../features/pipelines/routes/pipeline-flow')),
                  },
                ],
              },
              { path: 'units', lazy: lazyScreen(() => import('../../features/units/routes/unit-list')) },
              { path: 'fields', lazy: lazyScreen(() => import('../../features/fields/routes/project-fields')) },
              {
                path: 'reviews',
                lazy: lazyScreen(() => import('../../features/review-sessions/routes/sessions')),
              },
              {
                path: 'reports',
                handle: reports,
                lazy: lazyScreen(() => import('../../features/reports/routes/reports')),
              },
              {
                path: 'schedule',
                handle: schedule,
                lazy: lazyScreen(() => import('../../features/schedule/routes/schedule')),
              },
              { path: 'units/create', lazy: lazyScreen(() => import('../../features/units/routes/unit-create')) },
              {
                path: 'units/create_multiple',
                lazy: lazyScreen(() => import('../../features/units/routes/unit-create-multiple')),
              },
              {
                path: 'units/:unitId',
                lazy: crumbHandle('unit'),
                children: [
                  { index: true, lazy: lazyScreen(() => import('../../features/units/routes/unit')) },
                  {
                    path: 'edit',
                    handle: edit,
                    lazy: lazyScreen(() => import('../../features/units/routes/unit-edit')),
                  },
                ],
              },
            ],
          },
          { path: '*', element: <NotFoundScreen /> },
        ],
      },
      { path: '*', element: <NotFoundScreen /> },
    ],
  },
];
