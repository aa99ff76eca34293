/** Search by name across the caller's workspaces (the command palette). */
export { searchRoutes } from './routes';
