/** What other features use of pipelines: the routes, and the hooks tasks will fill in. */
export { pipelinesRoutes } from './routes';
export { onGraphSaved, onStagesAdded, onStagesRemoved, type StageChange } from './stage-hooks';
