/** What other features use of pipelines: the routes, the hooks tasks fill in, and the services the demo seed calls. */
export { pipelinesRoutes } from './routes';
export { saveGraph } from './graph';
export { createPipeline } from './service';
