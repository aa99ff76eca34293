import { Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { i18n } from '../i18n';
import { ReloadButton } from './status-screen';

let shown = false;

/**
 * A newer build of the app is served than this tab runs (an API answer named another build:
 * docs/decisions.md, entry 139). A notice that stays until it is closed, once per page, with a
 * button that reloads; the person picks the moment (the diagram editor keeps unsaved work across a
 * reload, a half-typed form does not). An old tab may otherwise fail to read answers whose format
 * changed, and would not know why.
 */
export function showUpdateNotice(): void {
  if (shown) return;
  shown = true;
  notifications.show({
    id: 'stageline-update',
    autoClose: false,
    color: 'blue',
    title: i18n.t('Stageline has been updated'),
    message: (
      <Group justify="space-between" gap="xs" wrap="wrap" mt={4}>
        <Text size="sm">{i18n.t('Reload the page to use the new version.')}</Text>
        <ReloadButton label={i18n.t('Reload')} compact />
      </Group>
    ),
    'data-testid': 'update-notice',
  });
}
