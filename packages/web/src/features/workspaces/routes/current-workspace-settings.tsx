import { Navigate } from 'react-router';
import { paths } from '@stageline/shared';
import { RequireWorkspace } from '../components/require-workspace';

/** `/app/workspaces/current/settings` resolves to the current workspace's settings. */
export default function CurrentWorkspaceSettingsScreen() {
  return <RequireWorkspace>{(id) => <Navigate to={paths.app.workspaceSettings(id)} replace />}</RequireWorkspace>;
}
