import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { queryClient } from './query-client';

/**
 * The app's one query cache for the screens under it: the shell, the public pages, the quickstart
 * and the password reset each wrap themselves in it. Not at the root, so that /login, whose screen
 * reads no query of its own, loads TanStack Query only after its first render (docs/decisions.md,
 * entry 118). Hooks outside it (the session, the OAuth buttons) name the client themselves.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
