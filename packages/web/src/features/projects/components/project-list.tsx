import { Anchor, Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { can, paths } from '@stageline/shared';
import { useProjects } from '../api';
import { useWorkspaceRole } from '../hooks/use-project-role';

/** The projects of a workspace, each with its pipelines and units counted; Create for Members and above. */
export function ProjectList({ workspaceId }: { workspaceId: number }) {
  const { t } = useTranslation();
  const projects = useProjects(workspaceId);
  const role = useWorkspaceRole(workspaceId);
  const create = can(role, 'project', 'create') ? (
    <Group>
      <Button
        component={Link}
        to={paths.app.projectCreate()}
        variant="light"
        size="xs"
        leftSection={<IconPlus size={14} />}
        data-testid="project-create-open"
      >
        {t('Create project')}
      </Button>
    </Group>
  ) : null;

  if (projects.isPending) return <Loader size="sm" />;
  if (projects.isError) {
    return (
      <Text c="red" size="sm">
        {t('Error while loading data')}
      </Text>
    );
  }
  if (projects.data.length === 0) {
    return (
      <Stack gap="xs" align="flex-start">
        <Text c="dimmed" size="sm" data-testid="project-list-empty">
          {t('No projects yet.')}
        </Text>
        {create}
      </Stack>
    );
  }
  return (
    <Stack gap="xs" data-testid="project-list">
      {projects.data.map((project) => (
        <Group key={project.id} justify="space-between" wrap="nowrap" data-testid="project-row" data-id={project.id}>
          <Anchor component={Link} to={paths.app.project(project.id)} fw={500} truncate>
            {project.name}
          </Anchor>
          <Group gap={6} wrap="nowrap">
            <Badge variant="light" color="gray">
              {t('{{count}} pipeline', { count: project.pipelines_count })}
            </Badge>
            <Badge variant="light" color="gray">
              {t('{{count}} unit', { count: project.units_count })}
            </Badge>
          </Group>
        </Group>
      ))}
      {create}
    </Stack>
  );
}
