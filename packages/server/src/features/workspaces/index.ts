/** What other features use of workspaces: the policy module and the membership lookups. */
export { personName } from './presenter';
export { actorIn, authorize, authorizeIn, inWorkspacesOf, membershipOf, type Actor } from './policy';
export { workspaceIdsOf } from './service';
export { workspacesRoutes } from './routes';
