/** What other features use of notifications: `notify` in a change's transaction, the task reporter, the routes. */
export { notify } from './service';
export { excerpt } from './presenter';
export { notifyReviewRequested, reportTaskChanges, type TaskChange, type TaskSnapshot } from './task-changes';
export { notificationsRoutes } from './routes';
