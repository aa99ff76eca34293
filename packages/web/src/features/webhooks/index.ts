/** Webhooks of a workspace: the settings section that adds them and shows their deliveries. */
export { WebhooksSection } from './components/webhooks-section';
