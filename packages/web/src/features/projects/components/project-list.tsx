import { Anchor, Badge, Button, Group, Loader, Stack } from '@mantine/core';
import { IconFolder, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { EmptyState } from '../../../shared/ui/empty-state';
import { useProjects } from '../api';
import { useWorkspaceAbilities } from '../hooks/use-workspace-abilities';
import { LoadError } from '../../../shared/ui/load-error';

/** The projects of a workspace, each with its pipelines and units counted; Create for Members and above. */
export function ProjectList({ workspaceId }: { workspaceId: number }) {
  const { t } = useTranslation();
  const projects = useProjects(workspaceId);
  const abilities = useWorkspaceAbilities(workspaceId);
  const create =
    (abilities?.projects.create ?? false) ? (
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
    return <LoadError retry={projects} testId="project-list-error" />;
  }
  if (projects.data.length === 0) {
    return (
      <EmptyState
        icon={<IconFolder size={22} />}
        title={t('No projects yet.')}
        testId="project-list-empty"
        actions={create}
      >
        {t('A project holds your pipelines and the units that go through them: a film, a game, a season.')}
      </EmptyState>
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
