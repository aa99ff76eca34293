/** What other features use of units: the routes. */
export { unitsRoutes } from './routes';
