import { Button, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formError } from '../../../shared/lib/form-errors';
import { initialReviewDefaults, projectBody, ProjectForm, useCreateProject, useProjects } from '../../projects';

/**
 * The project: what it is, then one created with the review defaults its stages start with; or a
 * project of the workspace that already exists.
 */
export function ProjectStep({
  workspaceId,
  projectId,
  onChosen,
  onNext,
}: {
  workspaceId: number;
  projectId: number | null;
  onChosen: (id: number) => void;
  onNext: () => void;
}) {
  const { t } = useTranslation();
  const projects = useProjects(workspaceId);
  const create = useCreateProject();
  const [problem, setProblem] = useState<string | null>(null);
  const existing = projects.data ?? [];
  return (
    <Stack gap="md" maw={640} data-testid="quickstart-project">
      <Title order={2}>{t('Your project')}</Title>
      <Text c="dimmed">
        {t(
          'A project holds pipelines and units: the stages work goes through, and the things that go through them. The review defaults below are what new stages start with; every stage can change them later.',
        )}
      </Text>
      {existing.length > 0 ? (
        <>
          <Group gap="xs">
            {existing.map((project) => (
              <Button
                key={project.id}
                variant={project.id === projectId ? 'light' : 'default'}
                onClick={() => {
                  onChosen(project.id);
                  onNext();
                }}
                data-testid="quickstart-project-use"
              >
                {t('Continue with {{name}}', { name: project.name })}
              </Button>
            ))}
          </Group>
          <Divider label={t('or create a new one')} />
        </>
      ) : null}
      <ProjectForm
        initialValues={{ name: '', description: '', ...initialReviewDefaults }}
        submitLabel={t('Create project')}
        testPrefix="quickstart-project"
        problem={problem}
        onSubmit={async (values, setErrors) => {
          setProblem(null);
          try {
            const project = await create.mutateAsync({ workspace: workspaceId, ...projectBody(values) });
            onChosen(project.id);
            onNext();
          } catch (error) {
            setProblem(
              formError(error, { fields: ['name', 'description'], setErrors, fallback: t('Data was not saved') }),
            );
          }
        }}
      />
    </Stack>
  );
}
