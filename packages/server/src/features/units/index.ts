/** What other features use of units: the routes. */
export { unitsRoutes } from './routes';
export { createUnitsBatch } from './service';
