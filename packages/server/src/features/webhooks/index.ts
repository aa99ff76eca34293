/** Webhooks of workspaces: their routes, the dispatcher that sends them, and the log's pruning. */
export { pruneDeliveries } from './service';
export { WebhookDispatcher } from './dispatcher';
export { webhooksRoutes } from './routes';
