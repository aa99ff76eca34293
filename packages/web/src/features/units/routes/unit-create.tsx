import { Alert, Center, Loader } from '@mantine/core';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TProject } from '@stageline/shared';
import { formError } from '../../../shared/lib/form-errors';
import { RecordView } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { showToast } from '../../../shared/ui/toast';
import { usePipelineNames } from '../../pipelines/read-only';
import { useOpenProject, useProjectRecord, useWorkspaceAbilities } from '../../projects';
import { useCreateUnit } from '../api';
import { UnitForm, unitFormFields, type TUnitFormValues } from '../components/unit-form';

/** `…/units/create`: one unit; its tasks are created with it. Then the unit opens. */
export default function UnitCreateScreen() {
  const { t } = useTranslation();
  const project = useProjectRecord();
  useOpenProject(project.data);
  return (
    <RecordView record={project} title={t('Create unit')}>
      {(data) => <CreateUnit project={data} />}
    </RecordView>
  );
}

function CreateUnit({ project }: { project: TProject }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const abilities = useWorkspaceAbilities(project.workspace);
  const pipelines = usePipelineNames(project.id);
  const create = useCreateUnit();
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (values: TUnitFormValues, setErrors: (errors: Record<string, string>) => void) => {
    setProblem(null);
    try {
      const unit = await create.mutateAsync({
        project: project.id,
        pipeline: Number(values.pipeline),
        name: values.name.trim(),
        description: values.description,
      });
      showToast({ kind: 'success', message: t('Unit created') });
      await navigate(paths.app.unit(project.id, unit.id));
    } catch (error) {
      setProblem(formError(error, { fields: unitFormFields, setErrors, fallback: t('Data was not saved') }));
    }
  };

  let body: React.ReactNode;
  if (abilities !== null && !abilities.units.create)
    body = (
      <Alert color="yellow" data-testid="unit-create-denied">
        {t('Your role does not allow creating units in this project.')}
      </Alert>
    );
  else if (!pipelines.data)
    body = (
      <Center mih={200}>
        <Loader />
      </Center>
    );
  else {
    const wanted = params.get('pipeline');
    const first = pipelines.data.find((p) => String(p.id) === wanted) ?? pipelines.data[0];
    body = (
      <UnitForm
        initialValues={{ name: '', description: '', pipeline: first ? String(first.id) : null }}
        pipelines={pipelines.data}
        onSubmit={submit}
        submitLabel={t('Create')}
        testPrefix="unit-create"
        problem={problem}
      />
    );
  }
  return <PageCard title={t('Create unit')}>{body}</PageCard>;
}
