import { useTranslation } from 'react-i18next';
import { Placeholder } from '../../../shared/ui/placeholder';

/** Built by a later issue; see docs/decisions.md on placeholders. */
export default function InviteLinkScreen() {
  const { t } = useTranslation();
  return <Placeholder title={t('Accept invite')} />;
}
