import { Alert, Button, Group, Text } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { useSession } from '../../auth';

/** 'Continue quickstart' for a user who skipped it or has not finished it; nothing once done. */
export function QuickstartBanner() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user || user.onboarding === 'done') return null;
  return (
    <Alert color="blue" icon={<IconRocket size={18} />} mb="md" data-testid="quickstart-banner">
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {user.onboarding === 'skipped'
            ? t('Pick up the quickstart where you left it.')
            : t('Set up a workspace, a project and your first pipeline in a few steps.')}
        </Text>
        <Button component={Link} to={paths.app.quickstart()} size="compact-sm" data-testid="quickstart-continue">
          {t('Continue quickstart')}
        </Button>
      </Group>
    </Alert>
  );
}
