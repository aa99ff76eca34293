import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { Alert } from '@mantine/core';
import { formError } from '../../../shared/lib/form-errors';
import { PageCard } from '../../../shared/ui/page-card';
import { showToast } from '../../../shared/ui/toast';
import { RequireWorkspace } from '../../workspaces';
import { useCreateProject } from '../api';
import {
  initialReviewDefaults,
  ProjectForm,
  projectBody,
  projectFormFields,
  type TProjectFormValues,
} from '../components/project-form';
import { useWorkspaceAbilities } from '../hooks/use-workspace-abilities';

/** Creates a project in the current workspace (Members and above), then opens it. */
export default function ProjectCreateScreen() {
  return <RequireWorkspace>{(workspaceId) => <CreateProject workspaceId={workspaceId} />}</RequireWorkspace>;
}

function CreateProject({ workspaceId }: { workspaceId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateProject();
  const abilities = useWorkspaceAbilities(workspaceId);
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (values: TProjectFormValues, setErrors: (errors: Record<string, string>) => void) => {
    setProblem(null);
    try {
      const project = await create.mutateAsync({ workspace: workspaceId, ...projectBody(values) });
      showToast({ kind: 'success', message: t('Project created') });
      await navigate(paths.app.project(project.id));
    } catch (error) {
      formError(error, { fields: projectFormFields, setErrors });
      setProblem(t('Project not created'));
    }
  };

  return (
    <PageCard title={t('Create project')}>
      {abilities !== null && !abilities.projects.create ? (
        <Alert color="yellow" data-testid="project-create-denied">
          {t('Your role does not allow creating projects in this workspace.')}
        </Alert>
      ) : (
        <ProjectForm
          initialValues={{ name: '', description: '', ...initialReviewDefaults }}
          onSubmit={submit}
          submitLabel={t('Create')}
          testPrefix="project-create"
          problem={problem}
        />
      )}
    </PageCard>
  );
}
