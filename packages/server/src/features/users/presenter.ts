import type { TEmailFrequency, TLanguage, TMe, TOnboarding } from '@stageline/shared';
import { isLanguage } from '@stageline/shared';
import type { UserRow } from '../auth';

const frequencies: readonly TEmailFrequency[] = ['hourly', 'daily', 'weekly', 'never'];
const onboardingStates: readonly TOnboarding[] = ['pending', 'skipped', 'done'];

/** The URL of a user's avatar; the version makes it cacheable forever and changes with the image. */
export function avatarUrl(userId: number, version: number | null): string | null {
  return version === null ? null : `/api/users/${userId}/avatar/?v=${version}`;
}

/**
 * What the signed-in user sees of their own account (GET users/me/). Built field by field: no hash
 * of a password, code or token can leave by accident.
 */
export function presentMe(
  user: UserRow,
  oauthAccounts: { provider: string; email: string | null }[],
  workspaceIds: number[],
): TMe {
  const language: TLanguage = isLanguage(user.language) ? user.language : 'en';
  const frequency = frequencies.find((f) => f === user.emailFrequency) ?? 'daily';
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    language,
    two_factor: user.twoFactor,
    recent_workspace: user.recentWorkspaceId,
    avatar: avatarUrl(user.id, user.avatarVersion),
    workspaces: workspaceIds,
    has_password: user.passwordHash !== null,
    oauth_accounts: oauthAccounts.map((account) => ({ provider: account.provider, email: account.email })),
    notify_browser: user.notifyBrowser,
    email_frequency: frequency,
    onboarding: onboardingStates.find((state) => state === user.onboarding) ?? 'done',
    time_zone: user.timeZone,
  };
}
