/** What other features use of live events: publishing in a transaction, pruning, the stream's routes. */
export {
  EventRetentionMs,
  EventsChannel,
  publish,
  pruneEvents,
  type Audience,
  type PublishedEvent,
  type TStoredEvent,
} from './publish';
export { type EventHub } from './hub';
export { eventsRoutes } from './routes';
export {
  emitTasksCreated,
  emitUnitsBatchCreated,
  emitWebhookEvents,
  publishWithWebhooks,
  WebhooksChannel,
  type WebhookEventInput,
} from './webhook-outbox';
