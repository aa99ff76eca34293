/** What other features use of teams: the routes, the check of team ids a request names, team names. */
export { teamsRoutes } from './routes';
export { assertTeams, teamRefs, TeamMessages } from './service';
