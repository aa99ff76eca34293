/** What other features use of workspaces: the policy module and the membership lookups. */
export { actorIn, authorize, authorizeIn, inWorkspacesOf, membershipOf, type Actor } from './policy';
export { createWorkspace, workspaceIdsOf } from './service';
export { workspacesRoutes } from './routes';
