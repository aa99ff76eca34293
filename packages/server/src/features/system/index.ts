/** What the app uses of the system routes: the routes, and the health path the host redirect exempts. */
export { healthPath, systemRoutes } from './routes';
