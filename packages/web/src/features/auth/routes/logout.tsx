import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { FullScreenLoader } from '../../../shared/ui/full-screen-loader';
import { signOut } from '../session/session';

/**
 * `/logout`: revokes the refresh token on the server, forgets the session (tokens, current
 * workspace, last project, cached data) and goes to the login screen.
 */
export default function LogoutScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    let active = true;
    void signOut().then(() => {
      if (active) void navigate(paths.login(), { replace: true });
    });
    return () => {
      active = false;
    };
  }, [navigate]);
  return <FullScreenLoader label={t('Signing out...')} />;
}
