/** What the app uses of OAuth sign-in: the routes. */
export { oauthRoutes } from './routes';
