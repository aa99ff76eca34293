import { Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { IconPlus, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TWorkspace } from '@stageline/shared';
import { compareNames } from '../../../shared/lib/compare-names';
import { markdownToPlainText } from '@stageline/shared/markdown';
import { PageCard } from '../../../shared/ui/page-card';
import { useMyInvites, useWorkspaces } from '../api';
import { PendingInvites } from '../components/pending-invites';
import { RoleBadge } from '../components/role-badge';
import { useCurrentWorkspaceId } from '../hooks/use-current-workspace';
import { useSwitchWorkspace } from '../hooks/use-switch-workspace';
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
