import { Button } from '@mantine/core';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';
import { StatusScreen } from '../../../shared/ui/status-screen';
import { loginPath } from '../session/next-path';
import { useSession } from '../session/session';

/**
 * Lets only a signed-in user through (docs/rules.md §Web): without a session it goes to
 * /login?next=<this page>; while users/me/ loads it shows 'Authorization...'. Renders its children,
 * or the child routes when used as a layout route.
 */
export function RequireSession({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { status, error, retry } = useSession();
  const location = useLocation();

  if (status === 'anonymous') {
    return <Navigate to={loginPath(`${location.pathname}${location.search}${location.hash}`)} replace />;
  }
  if (status === 'loading') {
    if (error) {
      return (
        <StatusScreen
          testId="session-error"
          title={t('Error while loading data')}
          message={error.message}
          action={<Button onClick={retry}>{t('Try again')}</Button>}
        />
      );
    }
    return <FullScreenLoader label={t('Authorization...')} />;
  }
  return <>{children ?? <Outlet />}</>;
}
