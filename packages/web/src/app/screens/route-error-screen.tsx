import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useEffect } from 'react';
import { NotFoundScreen } from './not-found-screen';
import { FatalErrorScreen } from './fatal-error-screen';

/** A route that threw: a 404 response shows the not-found screen, anything else the fatal one. */
export function RouteErrorScreen() {
  const error = useRouteError();
  useEffect(() => {
    // eslint-disable-next-line no-console
    console.error(error);
  }, [error]);
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  return <FatalErrorScreen />;
}
