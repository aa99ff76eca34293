import { Suspense, useEffect } from 'react';
import { Outlet, ScrollRestoration, useNavigate } from 'react-router';
import { loginPath, SessionKeeper } from '../../features/auth';
import { onForcedLogout } from '../../shared/api';
import { useShellStore } from '../../shared/lib/shell-store';
import { FullScreenLoader } from '../../shared/ui/full-screen-loader';
import { FatalErrorScreen } from '../screens/fatal-error-screen';
import { MaintenanceScreen } from '../screens/maintenance-screen';

/**
 * The root of every route: maintenance and a global error replace the page, the loading overlay
 * covers it, and a logout forced by the transport leads to the login screen.
 */
export function RootLayout() {
  const fatalError = useShellStore((s) => s.fatalError);
  const maintenance = useShellStore((s) => s.maintenance);
  const loadingLabel = useShellStore((s) => s.loadingLabel);
  const navigate = useNavigate();

  useEffect(
    () =>
      onForcedLogout(() => {
        const next = `${window.location.pathname}${window.location.search}${window.location.hash}`;
        void navigate(loginPath(next), { replace: true });
      }),
    [navigate],
  );

  if (maintenance) return <MaintenanceScreen />;
  if (fatalError) return <FatalErrorScreen message={fatalError} />;
  return (
    <>
      <Suspense fallback={null}>
        <SessionKeeper />
      </Suspense>
      <Outlet />
      {loadingLabel ? <FullScreenLoader label={loadingLabel} /> : null}
      <ScrollRestoration />
    </>
  );
}
