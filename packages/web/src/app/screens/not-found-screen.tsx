import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { StatusScreen } from '../../shared/ui/status-screen';

export function NotFoundScreen() {
  const { t } = useTranslation();
  return (
    <StatusScreen
      testId="not-found-screen"
      title={t('Page not found')}
      message={t('The page you are looking for does not exist.')}
      action={
        <Button component={Link} to={paths.home()}>
          {t('Go home')}
        </Button>
      }
    />
  );
}
