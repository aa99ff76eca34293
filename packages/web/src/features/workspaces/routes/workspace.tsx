import { Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconSettings, IconUsers } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TWorkspace } from '@stageline/shared';
import { PageCard } from '../../../shared/ui/page-card';
import { UserMarkdown } from '../../../shared/ui/user-markdown';
import { LeaveWorkspaceButton } from '../components/settings/leave-button';
import { RoleBadge } from '../components/role-badge';
import { WorkspaceGate } from '../components/workspace-gate';

/**
 * A workspace at a glance: who owns it, my role, its size, and its projects. The project list comes
 * in as `projects` (app/routing/workspace-screen.tsx puts it in), because projects build on
 * workspaces and not the other way round (docs/architecture.md §Layers).
 */
export default function WorkspaceScreen({ projects }: { projects: (workspaceId: number) => ReactNode }) {
  const { t } = useTranslation();
  return (
    <WorkspaceGate title={t('Workspace')}>
      {(workspace) => <Overview workspace={workspace} projects={projects} />}
    </WorkspaceGate>
  );
}

function Overview({ workspace, projects }: { workspace: TWorkspace; projects: (workspaceId: number) => ReactNode }) {
  const { t } = useTranslation();
  const manages = workspace.abilities.update || workspace.abilities.invite;
  return (
    <PageCard
      title={workspace.name}
      actions={
        <>
          <Button
            component={Link}
            to={paths.app.workspaceWorkload(workspace.id)}
            variant="default"
            leftSection={<IconUsers size={16} />}
            data-testid="workspace-workload-open"
          >
            {t('Workload')}
          </Button>
          {manages ? (
            <Button
              component={Link}
              to={paths.app.workspaceSettings(workspace.id)}
              variant="default"
              leftSection={<IconSettings size={16} />}
              data-testid="workspace-settings-open"
            >
              {t('Settings')}
            </Button>
          ) : null}
        </>
      }
    >
      <Stack gap="lg">
        {workspace.description ? <UserMarkdown text={workspace.description} testId="workspace-description" /> : null}
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <Fact label={t('Owner')}>
            <Text fw={500} truncate data-testid="workspace-owner">
              {workspace.owner.name || workspace.owner.username}
            </Text>
          </Fact>
          <Fact label={t('My role')}>
            <div>
              <RoleBadge role={workspace.role} testId="workspace-my-role" />
            </div>
          </Fact>
          <Fact label={t('Members')}>
            <Text fw={500} data-testid="workspace-members-count">
              {workspace.members_count}
            </Text>
          </Fact>
        </SimpleGrid>
        <Stack gap="xs" component="section" aria-label={t('Projects')} data-testid="workspace-projects">
          <Title order={2} size="h4">
            {t('Projects')}
          </Title>
          {projects(workspace.id)}
        </Stack>
        {!manages && workspace.abilities.leave ? (
          <Group>
            <LeaveWorkspaceButton workspace={workspace} />
          </Group>
        ) : null}
      </Stack>
    </PageCard>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}
