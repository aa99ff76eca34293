import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { ApiError } from '../../../shared/api';
import { PageCard } from '../../../shared/ui/page-card';
import { showToast } from '../../../shared/ui/toast';
import { useAcceptInvite, useDeclineInvite, useInvitePreview } from '../api';
import { useSwitchWorkspace } from '../hooks/use-switch-workspace';
import { reportFailure } from '../lib/report';
import { RoleBadge } from './role-badge';
import { LoadError } from '../../../shared/ui/load-error';

/**
 * The screen of an invite link (`/i/{token}`) and of a personal link (`/p/{token}`): what the
 * token offers, with Accept and Decline. The route guard has already asked for sign-in.
 */
export function InvitePreviewScreen() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const preview = useInvitePreview(token);
  const accept = useAcceptInvite();
  const decline = useDeclineInvite();
  const switchTo = useSwitchWorkspace();
  const navigate = useNavigate();
  const [declined, setDeclined] = useState(false);

  const onAccept = async () => {
    try {
      const workspace = await accept.mutateAsync(token);
      showToast({ kind: 'success', message: t('You joined {{workspace}}', { workspace: workspace.name }) });
      await switchTo(workspace.id, paths.app.workspace(workspace.id));
    } catch (error) {
      reportFailure(error, t('Invite was not accepted'));
    }
  };

  const onDecline = async () => {
    try {
      await decline.mutateAsync(token);
      setDeclined(true);
      showToast({ kind: 'info', message: t('Invite declined') });
      await navigate(paths.app.workspaces());
    } catch (error) {
      reportFailure(error, t('Invite was not declined'));
    }
  };

  const invalid = preview.error instanceof ApiError && [400, 404, 410].includes(preview.error.status);

  return (
    <PageCard title={t('Accept invite')}>
      {preview.isPending ? (
        <Group justify="center" py="xl">
          <Loader />
        </Group>
      ) : invalid ? (
        <Stack gap="sm" align="flex-start" data-testid="invite-preview-invalid">
          <Alert color="red">{t('Invalid token')}</Alert>
          <Button component={Link} to={paths.app.workspaces()} variant="default">
            {t('All workspaces')}
          </Button>
        </Stack>
      ) : preview.isError ? (
        <LoadError retry={preview} />
      ) : preview.data.member ? (
        <Stack gap="sm" align="flex-start" data-testid="invite-preview-member">
          <Text>{t('You are already a member of {{workspace}}.', { workspace: preview.data.workspace.name })}</Text>
          <Button
            onClick={() => void switchTo(preview.data.workspace.id, paths.app.workspace(preview.data.workspace.id))}
            data-testid="invite-preview-open"
          >
            {t('Open workspace')}
          </Button>
        </Stack>
      ) : (
        <Stack gap="md" data-testid="invite-preview">
          <Text size="lg">
            {preview.data.inviter_name
              ? t('{{name}} invites you to the workspace {{workspace}}.', {
                  name: preview.data.inviter_name,
                  workspace: preview.data.workspace.name,
                })
              : t('You are invited to the workspace {{workspace}}.', { workspace: preview.data.workspace.name })}
          </Text>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('Role offered')}
            </Text>
            <RoleBadge role={preview.data.role} testId="invite-preview-role" />
          </Group>
          <Group justify="flex-end" gap="xs">
            <Button
              variant="default"
              onClick={() => void onDecline()}
              loading={decline.isPending}
              disabled={accept.isPending || declined}
              data-testid="invite-preview-decline"
            >
              {t('Decline')}
            </Button>
            <Button
              onClick={() => void onAccept()}
              loading={accept.isPending}
              disabled={decline.isPending || declined}
              data-testid="invite-preview-accept"
            >
              {t('Accept')}
            </Button>
          </Group>
        </Stack>
      )}
    </PageCard>
  );
}
