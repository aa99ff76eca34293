import { useTranslation } from 'react-i18next';
import { StatusScreen } from '../../shared/ui/status-screen';

/** docs/rules.md §Web: in maintenance mode every screen is replaced by this text. */
export function MaintenanceScreen() {
  const { t } = useTranslation();
  return (
    <StatusScreen testId="maintenance-screen" title={t('Sorry, we are under maintenance. Please try again later.')} />
  );
}
