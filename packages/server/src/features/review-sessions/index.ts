/** What the app uses of review sessions: the team's routes and the client link's own (docs/review-sessions.md). */
export { reviewSessionsRoutes } from './routes';
export { clientReviewRoutes, defaultClientLimits, type ClientLimits } from './client-routes';
