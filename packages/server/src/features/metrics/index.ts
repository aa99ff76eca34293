export { createMetrics, type Metrics, type MetricsSources } from './registry';
export { registerMetrics } from './routes';
