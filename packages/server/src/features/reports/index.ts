/** Reports of a project (docs/reports.md). */
export { reportsRoutes } from './routes';
