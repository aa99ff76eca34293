import { Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconPlus, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TPendingInvite, type TWorkspace } from '@stageline/shared';
import { compareNames } from '../../../shared/lib/compare-names';
import { markdownToPlainText } from '@stageline/shared/markdown';
import { PageCard } from '../../../shared/ui/page-card';
import { showToast } from '../../../shared/ui/toast';
import { useAcceptInvite, useDeclineInvite, useMyInvites, useWorkspaces } from '../api';
import { RoleBadge } from '../components/role-badge';
import { useCurrentWorkspaceId } from '../hooks/use-current-workspace';
import { useSwitchWorkspace } from '../hooks/use-switch-workspace';
import { reportFailure } from '../lib/report';
import classes from './workspaces.module.css';
import { LoadError } from '../../../shared/ui/load-error';

/** My workspaces (the current one marked), my pending invites, and the way to create one. */
export default function WorkspaceListScreen() {
  const { t } = useTranslation();
  const workspaces = useWorkspaces();
  const invites = useMyInvites();
  const currentId = useCurrentWorkspaceId();
  const switchTo = useSwitchWorkspace();
  const list = [...(workspaces.data ?? [])].sort((a, b) => compareNames(a.name, b.name));

  return (
    <PageCard
      title={t('Workspaces')}
      actions={
        <Button
          component={Link}
          to={paths.app.workspaceCreate()}
          leftSection={<IconPlus size={16} />}
          data-testid="workspace-create-open"
        >
          {t('Create workspace')}
        </Button>
      }
    >
      {invites.data?.length ? <PendingInvites invites={invites.data} /> : null}
      {workspaces.isPending ? (
        <Group justify="center" py="xl">
          <Loader />
        </Group>
      ) : workspaces.isError ? (
        <LoadError retry={workspaces} />
      ) : list.length === 0 ? (
        <Stack align="center" gap="sm" py="xl" data-testid="workspaces-empty">
          <IconUsers size={40} stroke={1.3} />
          <Title order={2} size="h4">
            {t('No workspaces yet')}
          </Title>
          <Text c="dimmed" ta="center" maw={420}>
            {t('A workspace holds your projects and your team. Create the first one, then invite people.')}
          </Text>
          <Button component={Link} to={paths.app.workspaceCreate()} leftSection={<IconPlus size={16} />}>
            {t('Create your first workspace')}
          </Button>
        </Stack>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" data-testid="workspace-list">
          {list.map((workspace) => (
            <WorkspaceCard
              key={workspace.id}
              workspace={workspace}
              current={workspace.id === currentId}
              onOpen={() => void switchTo(workspace.id, paths.app.workspace(workspace.id))}
            />
          ))}
        </SimpleGrid>
      )}
    </PageCard>
  );
}

function WorkspaceCard({
  workspace,
  current,
  onOpen,
}: {
  workspace: TWorkspace;
  current: boolean;
  onOpen: () => void;
}) {
  const { t } = useTranslation();
  return (
    <UnstyledButton
      onClick={onOpen}
      className={classes.cardButton}
      data-testid="workspace-card"
      data-nav-item
      data-workspace-id={workspace.id}
      data-current={current || undefined}
      aria-current={current ? 'true' : undefined}
    >
      <Card withBorder radius="md" padding="md" className={current ? classes.current : undefined} h="100%">
        <Stack gap={6}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={600} truncate>
              {workspace.name}
            </Text>
            <Group gap={4} wrap="nowrap">
              {current ? (
                <Badge variant="filled" size="sm" data-testid="workspace-current">
                  {t('Current')}
                </Badge>
              ) : null}
              <RoleBadge role={workspace.role} />
            </Group>
          </Group>
          {workspace.description ? (
            <Text size="sm" c="dimmed" lineClamp={2} data-testid="workspace-card-description">
              {markdownToPlainText(workspace.description)}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            {t('{{count}} member', { count: workspace.members_count })}
          </Text>
        </Stack>
      </Card>
    </UnstyledButton>
  );
}

/** Direct invites waiting for my answer: accepting switches into the workspace. */
function PendingInvites({ invites }: { invites: TPendingInvite[] }) {
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
        {t('Invites')}
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
            <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
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
