import { useTranslation } from 'react-i18next';
import { ReloadButton, StatusScreen } from '../../shared/ui/status-screen';

/** Replaces the page when a global error is set or a screen's code failed to load. */
export function FatalErrorScreen({ message }: { message?: string | null }) {
  const { t } = useTranslation();
  return (
    <StatusScreen
      testId="fatal-error-screen"
      title={t('Something went wrong')}
      message={message ?? t('The page failed to load. Reload it to try again.')}
      action={<ReloadButton label={t('Reload')} />}
    />
  );
}
