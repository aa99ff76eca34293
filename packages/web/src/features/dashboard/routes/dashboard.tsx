import { useTranslation } from 'react-i18next';
import { Placeholder } from '../../../shared/ui/placeholder';
import { RequireWorkspace } from '../../workspaces';

/** My work, within the current workspace; the task lists arrive with the task engine. */
export default function DashboardScreen() {
  const { t } = useTranslation();
  return <RequireWorkspace>{() => <Placeholder title={t('My work')} />}</RequireWorkspace>;
}
