import { ApiError, shownByTransport } from '../../../shared/api';
import { i18n } from '../../../shared/i18n';
import { showToast } from '../../../shared/ui/toast';

/**
 * docs/rules.md §Web: every failed task change says 'Task update error', with the server's detail;
 * once: not when the transport has told the person already (the server down, busy, or slow).
 */
export function showTaskUpdateError(error: unknown): void {
  if (shownByTransport(error)) return;
  const detail = error instanceof ApiError || error instanceof Error ? error.message : '';
  showToast({ kind: 'error', title: i18n.t('Task update error'), message: detail || i18n.t('Unknown error') });
}
