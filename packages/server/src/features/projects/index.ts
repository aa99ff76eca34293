/** What other features use of projects: the policy lookup and the review-settings mapping. */
export { authorizeProject, type ProjectRow } from './policy';
export { reviewColumns, reviewDefaultsOf } from './presenter';
export { projectsRoutes } from './routes';
export { createProject } from './service';
