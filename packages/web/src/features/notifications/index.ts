/** What the rest of the app may use of the notifications feature (docs/architecture.md §Layers: features talk through exports). */
export { LiveEvents } from './live/live-events';
export { UnreadBadge } from './components/unread-badge';
export { NotificationsBell } from './components/notifications-bell';
export { askBrowserPermission, browserPermission } from './lib/browser-notifications';
export { useReadOpenedTask } from './api';
