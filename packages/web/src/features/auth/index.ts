import { lazy } from 'react';

/** What the rest of the app may use of the auth feature (docs/architecture.md §Layers: features talk through exports). */
export { RequireSession } from './components/require-session';
export { UserAvatar } from './components/user-avatar';
export { CodeInput } from './components/code-input';
export { ResendCodeButton } from './components/resend-code-button';
export { PasswordStrengthMeter } from './components/password-strength-meter';
export { displayName, useCurrentUser, useSession } from './session/session';
export { loginPath } from './session/next-path';
export { meQueryKey, oauthProvidersQueryOptions, sendCode, startOAuthLink } from './api';
export { withPasswordConfirm } from './lib/password-confirm';
export { watchPrerenderedLogin } from './lib/prerendered-login';
/**
 * Keeps the session alive (token refresh, the user's time zone), mounted at the root; loaded after
 * the first render, with TanStack Query, which /login's first load does not carry (docs/decisions.md, entry 118).
 */
export const SessionKeeper = lazy(async () => ({ default: (await import('./session/session-keeper')).SessionKeeper }));
/** The sign-in and sign-up forms, for screens that offer them in place (the quickstart); loaded lazily. */
export const LoginPanel = lazy(() => import('./routes/login'));
export const RegisterPanel = lazy(() => import('./routes/register'));
