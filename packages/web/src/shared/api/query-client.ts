import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/** The app's query cache. Client errors are not retried: they will not fix themselves. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 2,
    },
  },
});
