/** What other features use of live events: publishing in a transaction, pruning, the stream's routes. */
export { EventRetentionMs, publish, pruneEvents, type Audience, type TStoredEvent } from './publish';
export { eventsRoutes } from './routes';
export { emitTasksCreated, emitWebhookEvents, WebhooksChannel, type WebhookEventInput } from './webhook-outbox';
