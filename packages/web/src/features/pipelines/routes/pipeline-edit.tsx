import { Alert } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TPipeline, type TWorkspaceAbilities } from '@stageline/shared';
import { parseRecordId, RecordDeleteButton, RecordView, type TRecord } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { useOpenProject, useProject, useWorkspaceAbilities } from '../../projects';
import type { TPipelinePatch } from '../crud-api';
import { PipelineForm, pipelineBody, pipelineFormFields, type TPipelineFormValues } from '../crud/pipeline-form';
import { usePipelineRecord } from '../crud/use-pipeline-record';

/** Edits a pipeline's name, description and layout (Members and above); Delete for Admins. */
export default function PipelineEditScreen() {
  const { t } = useTranslation();
  const projectId = parseRecordId(useParams().projectId) ?? 0;
  const project = useProject(projectId, projectId > 0);
  useOpenProject(project.data);
  const abilities = useWorkspaceAbilities(project.data?.workspace);
  const record = usePipelineRecord(projectId);
  return (
    <RecordView record={record} title={t('Edit pipeline')}>
      {(pipeline) => <EditPipeline key={pipeline.id} pipeline={pipeline} record={record} abilities={abilities} />}
    </RecordView>
  );
}

function EditPipeline({
  pipeline,
  record,
  abilities,
}: {
  pipeline: TPipeline;
  record: TRecord<TPipeline, TPipelinePatch>;
  abilities: TWorkspaceAbilities | null;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();

  const submit = async (values: TPipelineFormValues, setErrors: (errors: Record<string, string>) => void) => {
    const saved = await record.save(pipelineBody(values), { fields: pipelineFormFields, setErrors });
    if (saved) await navigate(paths.app.pipeline(saved.project, saved.id));
  };

  return (
    <PageCard title={t('Edit pipeline')}>
      {abilities !== null && !abilities.pipelines.update ? (
        <Alert color="yellow" data-testid="pipeline-edit-denied">
          {t('Your role does not allow editing this pipeline.')}
        </Alert>
      ) : (
        <PipelineForm
          initialValues={{ name: pipeline.name, description: pipeline.description, layout: pipeline.layout }}
          onSubmit={submit}
          submitLabel={t('Save')}
          testPrefix="pipeline-edit"
          extraActions={
            (abilities?.pipelines.delete ?? false) ? (
              <RecordDeleteButton record={record} name={pipeline.name} testId="pipeline-delete" />
            ) : null
          }
        />
      )}
    </PageCard>
  );
}
