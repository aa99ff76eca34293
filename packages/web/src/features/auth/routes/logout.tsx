import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { tokenStore } from '../../../shared/api/tokens';
import { clearSessionStorage } from '../../../shared/lib/storage';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';
import { queryClient } from '../../../shared/api/query-client';

/** `/logout`: forgets the session (tokens, current workspace, last project) and goes to login. */
export default function LogoutScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    tokenStore.clear();
    clearSessionStorage();
    queryClient.clear();
    void navigate(paths.login(), { replace: true });
  }, [navigate]);
  return <FullScreenLoader label={t('Signing out...')} />;
}
