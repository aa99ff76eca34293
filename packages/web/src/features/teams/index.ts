/** Teams of a workspace (docs/review-rules.md): the settings section, the list other screens pick from. */
export { TeamsSection } from './components/teams-section';
export { TeamBadge } from './components/team-badge';
export { teamsQueryOptions, useTeams } from './api';
