import { Alert, Button, Group, Text } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { useSession } from '../../auth';
import { useWorkspaces } from '../../workspaces';

/**
 * 'Continue quickstart' while it is not done, for someone setting up their own team: a user with no
 * workspace yet, or one who owns a workspace (the quickstart resumes at its missing records). A
 * person who only joined other people's workspaces is not urged to set one up (docs/decisions.md,
 * entry 62).
 */
export function QuickstartBanner() {
  const { t } = useTranslation();
  const { user } = useSession();
  const workspaces = useWorkspaces();
  if (!user || user.onboarding === 'done' || !workspaces.data) return null;
  const fresh = workspaces.data.length === 0;
  if (!fresh && !workspaces.data.some((w) => w.owner.id === user.id)) return null;
  return (
    <Alert color="blue" icon={<IconRocket size={18} />} mb="md" data-testid="quickstart-banner">
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          {fresh && user.onboarding === 'pending'
            ? t('Set up a workspace, a project and your first pipeline in a few steps.')
            : t('Pick up the quickstart where you left it.')}
        </Text>
        <Button component={Link} to={paths.app.quickstart()} size="compact-sm" data-testid="quickstart-continue">
          {t('Continue quickstart')}
        </Button>
      </Group>
    </Alert>
  );
}
