/** Saved views of the matrix and task lists. */
export { viewsRoutes } from './routes';
