import { notifications } from '@mantine/notifications';
import type { TNotifier, TToastKind } from '../api/client';
import { i18n } from '../i18n';

const defaults: Record<TToastKind, { title: string; color: string }> = {
  success: { title: 'Succes', color: 'teal' },
  info: { title: 'Info', color: 'blue' },
  warning: { title: 'Warning', color: 'yellow' },
  error: { title: 'Error', color: 'red' },
};

/** A toast with the default titles of docs/rules.md §Web; timing and position are set on <Notifications>. */
export const showToast: TNotifier = ({ kind, message, title }) => {
  notifications.show({
    title: title ?? i18n.t(defaults[kind].title),
    message,
    color: defaults[kind].color,
  });
};
