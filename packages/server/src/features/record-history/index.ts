/** Reading the history of units and tasks (docs/history-and-audit.md). */
export { recordHistoryRoutes } from './routes';
