import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paths, type TPendingInvite } from '@stageline/shared';
import { showToast } from '../../../shared/ui/toast';
import { useAcceptInvite, useDeclineInvite } from '../api';
import { useSwitchWorkspace } from '../hooks/use-switch-workspace';
import { reportFailure } from '../lib/report';
import { RoleBadge } from './role-badge';

/**
 * Direct invites waiting for my answer: accepting switches into the workspace (and remembers it for
 * the next sign-in). On the workspace list and at the top of the quickstart's workspace step, which
 * gives its own `title` (docs/decisions.md, entry 156).
 */
export function PendingInvites({ invites, title }: { invites: TPendingInvite[]; title?: string }) {
  const { t } = useTranslation();
  const accept = useAcceptInvite();
  const decline = useDeclineInvite();
  const switchTo = useSwitchWorkspace();
  const [busy, setBusy] = useState<number | null>(null);

  const onAccept = async (invite: TPendingInvite) => {
    setBusy(invite.id);
    try {
      const workspace = await accept.mutateAsync(invite.id);
      showToast({ kind: 'success', message: t('You joined {{workspace}}', { workspace: workspace.name }) });
      await switchTo(workspace.id, paths.app.workspace(workspace.id));
    } catch (error) {
      reportFailure(error, t('Invite was not accepted'));
    } finally {
      setBusy(null);
    }
  };

  const onDecline = async (invite: TPendingInvite) => {
    setBusy(invite.id);
    try {
      await decline.mutateAsync(invite.id);
      showToast({ kind: 'info', message: t('Invite declined') });
    } catch (error) {
      reportFailure(error, t('Invite was not declined'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="xs" component="section" aria-label={t('Invites')} data-testid="pending-invites">
      <Title order={2} size="h4">
        {title ?? t('Invites')}
      </Title>
      {invites.map((invite) => (
        <Card
          key={invite.id}
          withBorder
          radius="md"
          padding="sm"
          data-testid="pending-invite"
          data-invite-id={invite.id}
        >
          <Group justify="space-between" gap="sm">
            {/* A basis of its own: on a narrow screen the buttons wrap below rather than cut the name. */}
            <Stack gap={2} style={{ minWidth: 0, flex: '1 1 12rem' }}>
              <Text fw={600} truncate>
                {invite.workspace.name}
              </Text>
              <Group gap={6}>
                <Text size="xs" c="dimmed">
                  {invite.inviter_name
                    ? t('{{name}} invites you as', { name: invite.inviter_name })
                    : t('You are invited as')}
                </Text>
                <RoleBadge role={invite.role} />
              </Group>
            </Stack>
            <Group gap="xs">
              <Button
                variant="default"
                size="xs"
                disabled={busy !== null}
                loading={busy === invite.id && decline.isPending}
                onClick={() => void onDecline(invite)}
                data-testid="invite-decline"
              >
                {t('Decline')}
              </Button>
              <Button
                size="xs"
                disabled={busy !== null}
                loading={busy === invite.id && accept.isPending}
                onClick={() => void onAccept(invite)}
                data-testid="invite-accept"
              >
                {t('Accept')}
              </Button>
            </Group>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}
