/** What other features use of the schedule: the routes (docs/schedule.md). */
export { scheduleRoutes } from './routes';
