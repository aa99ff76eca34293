import { useTranslation } from 'react-i18next';
import { FullScreenLoader } from '../../shared/ui/full-screen-loader';

/** Shown while the first screen's code loads. */
export function BootLoader() {
  const { t } = useTranslation();
  return <FullScreenLoader label={t('Loading...')} />;
}
