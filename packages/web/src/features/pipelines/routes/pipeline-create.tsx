import { Alert } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TProject } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { RecordView } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { showToast } from '../../../shared/ui/toast';
import { useOpenProject, useProjectRecord, useWorkspaceAbilities } from '../../projects';
import { useCreatePipeline } from '../crud-api';
import { PipelineForm, pipelineBody, pipelineFormFields, type TPipelineFormValues } from '../crud/pipeline-form';

/** Creates a pipeline (it starts with its start and end stages), then opens the flow editor. */
export default function PipelineCreateScreen() {
  const { t } = useTranslation();
  const project = useProjectRecord();
  useOpenProject(project.data);
  return (
    <RecordView record={project} title={t('Create pipeline')}>
      {(data) => <CreatePipeline project={data} />}
    </RecordView>
  );
}

function CreatePipeline({ project }: { project: TProject }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const abilities = useWorkspaceAbilities(project.workspace);
  const create = useCreatePipeline();
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (values: TPipelineFormValues, setErrors: (errors: Record<string, string>) => void) => {
    setProblem(null);
    try {
      const pipeline = await create.mutateAsync({ project: project.id, ...pipelineBody(values) });
      showToast({ kind: 'success', message: t('Pipeline created') });
      await navigate(paths.app.pipelineFlow(project.id, pipeline.id));
    } catch (error) {
      setProblem(formError(error, { fields: pipelineFormFields, setErrors, fallback: t('Data was not saved') }));
    }
  };

  return (
    <PageCard title={t('Create pipeline')}>
      {abilities !== null && !abilities.pipelines.create ? (
        <Alert color="yellow" data-testid="pipeline-create-denied">
          {t('Your role does not allow creating pipelines in this project.')}
        </Alert>
      ) : (
        <PipelineForm
          initialValues={{ name: '', description: '', layout: 'vertical' }}
          onSubmit={submit}
          submitLabel={t('Create')}
          testPrefix="pipeline-create"
          problem={problem}
        />
      )}
    </PageCard>
  );
}
