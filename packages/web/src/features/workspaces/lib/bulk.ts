import type { TFunction } from 'i18next';
import type { TBulkResult, TWorkspaceUser } from '@stageline/shared';
import { showToast } from '../../../shared/ui/toast';
import { showListToast } from './report';

export type TBulkAction = 'set_roles' | 'remove';

/** The name to show for a team row: its name, else username, else e-mail. */
export const userLabel = (user: Pick<TWorkspaceUser, 'name' | 'username' | 'email'>) =>
  user.name || user.username || user.email || '?';

/**
 * Reports a bulk action's partial result (docs/rules.md §Web): how many succeeded, how many failed, and
 * each failure by name with the server's reason.
 */
export function reportBulkResult(
  action: TBulkAction,
  result: TBulkResult,
  users: readonly TWorkspaceUser[],
  t: TFunction,
): void {
  const nameOf = (id: number) => {
    const user = users.find((u) => u.user_id === id);
    return user ? userLabel(user) : `#${id}`;
  };
  if (result.succeeded > 0) {
    showToast({
      kind: 'success',
      message:
        action === 'remove'
          ? t('{{count}} users removed', { count: result.succeeded })
          : t('{{count}} users updated', { count: result.succeeded }),
    });
  }
  if (result.failed > 0 || result.errors.length > 0) {
    const count = Math.max(result.failed, result.errors.length);
    const lines = result.errors.map((error) => {
      const title =
        action === 'remove'
          ? t('Can not remove {{user}}', { user: nameOf(error.user) })
          : t('Can not change role for {{user}}', { user: nameOf(error.user) });
      return error.detail ? `${title}: ${error.detail}` : title;
    });
    showListToast(
      'error',
      action === 'remove' ? t('{{count}} users not removed', { count }) : t('{{count}} users not updated', { count }),
      lines,
    );
  }
}
