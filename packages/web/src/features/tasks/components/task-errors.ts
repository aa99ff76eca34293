import { ApiError } from '../../../shared/api';
import { i18n } from '../../../shared/i18n';
import { showToast } from '../../../shared/ui/toast';

/** docs/rules.md §Web: every failed task change says 'Task update error', with the server's detail. */
export function showTaskUpdateError(error: unknown): void {
  const detail = error instanceof ApiError || error instanceof Error ? error.message : '';
  showToast({ kind: 'error', title: i18n.t('Task update error'), message: detail || i18n.t('Unknown error') });
}
