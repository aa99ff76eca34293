/** What the app uses of users: the routes. */
export { usersRoutes } from './routes';
