import { Button, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconConfetti } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';

/**
 * The end of the quickstart, and what a visitor sees on coming back after finishing: where to go
 * next. Links to the project and pipeline only when the quickstart knows them.
 */
export function DoneStep({
  projectId,
  pipelineId,
  again = false,
}: {
  projectId: number | null;
  pipelineId: number | null;
  again?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" align="flex-start" data-testid="quickstart-done">
      <ThemeIcon size={48} radius="xl" variant="light" color="teal">
        <IconConfetti size={28} />
      </ThemeIcon>
      <Title order={2}>{again ? t('You have finished the quickstart') : t('Your first pipeline is ready')}</Title>
      <Text c="dimmed">
        {t(
          'Add units to your project: each gets a task at every stage of the pipeline. Tasks you are in charge of show up in My work.',
        )}
      </Text>
      <Group gap="sm">
        {projectId !== null && pipelineId !== null ? (
          <Button
            component={Link}
            to={paths.app.pipeline(projectId, pipelineId)}
            data-testid="quickstart-open-pipeline"
          >
            {t('Open the pipeline')}
          </Button>
        ) : null}
        {projectId !== null ? (
          <Button component={Link} to={paths.app.unitCreateMultiple(projectId)} variant="default">
            {t('Create units')}
          </Button>
        ) : null}
        <Button component={Link} to={paths.app.dashboard()} variant="default" data-testid="quickstart-my-work">
          {t('Go to My work')}
        </Button>
        <Button component={Link} to={paths.docs()} variant="subtle">
          {t('Read the docs')}
        </Button>
      </Group>
    </Stack>
  );
}
