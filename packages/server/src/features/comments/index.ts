/** What other features use of comments: the routes. */
export { commentsRoutes } from './routes';
