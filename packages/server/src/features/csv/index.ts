/** What other features use of CSV: the routes. */
export { csvRoutes } from './routes';
