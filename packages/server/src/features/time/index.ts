/** What other features use of time logs: the routes (docs/time.md). */
export { timeRoutes } from './routes';
