import { paths, type TNotification, type TNotificationKind } from '@stageline/shared';

/** The sentence of each kind; `{{actor}}` did something to `{{target}}` (keys of notifications-web.json). */
const sentences: Record<TNotificationKind, string> = {
  assigned: '{{actor}} assigned you to {{target}}',
  reviewer_added: '{{actor}} made you a reviewer of {{target}}',
  review_requested: '{{actor}} asked you to review {{target}}',
  accepted: '{{actor}} accepted {{target}}',
  rejected: '{{actor}} rejected {{target}}',
  comment: '{{actor}} commented on {{target}}',
  mention: '{{actor}} mentioned you in {{target}}',
  invited: '{{actor}} invited you to {{target}}',
  webhook_disabled: 'A webhook of {{target}} was turned off after a day of failed deliveries',
  webhook_paused: 'A webhook of {{target}} was paused after failed deliveries in a row',
};

type TTranslate = (key: string, params?: Record<string, unknown>) => string;

/** What the notification is about, as people name it: `unit · stage`, a unit, or a workspace. */
export function notificationTarget(notification: TNotification, t: TTranslate): string {
  if (notification.task) return `${notification.task.unit} · ${notification.task.stage}`;
  if (notification.unit) return notification.unit.name;
  if (notification.workspace) return notification.workspace.name;
  return t('Stageline');
}

/** The translated sentence a notification reads as: '{actor} mentioned you in {task}'. */
export function describeNotification(notification: TNotification, t: TTranslate): string {
  // Teams and review rules: a review requested through a team names it (its `text`).
  if (notification.kind === 'review_requested' && notification.text)
    return t('{{actor}} asked {{team}} to review {{target}}', {
      actor: notification.actor?.name ?? t('Someone'),
      team: notification.text,
      target: notificationTarget(notification, t),
    });
  return t(sentences[notification.kind], {
    actor: notification.actor?.name ?? t('Someone'),
    target: notificationTarget(notification, t),
  });
}

/** Where a notification leads: its task, its unit, or its workspace; null when none is left. */
export function notificationPath(notification: TNotification): string | null {
  if (notification.task) return paths.app.task(notification.task.id);
  if (notification.unit) return paths.app.unit(notification.unit.project, notification.unit.id);
  if (notification.workspace)
    return notification.kind === 'invited'
      ? paths.app.workspaces()
      : notification.kind === 'webhook_disabled' || notification.kind === 'webhook_paused'
        ? paths.app.workspaceSettingsTab(notification.workspace.id, 'integrations')
        : paths.app.workspace(notification.workspace.id);
  return null;
}
