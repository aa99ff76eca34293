import { Alert, Button } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TUnit } from '@stageline/shared';
import { RecordView, type TRecord } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { useProject, useWorkspaceAbilities } from '../../projects';
import type { TUnitPatch } from '../api';
import { UnitForm, unitFormFields, type TUnitFormValues } from '../components/unit-form';
import { useUnitRecord } from '../hooks/use-unit-record';

/** `…/units/{unitId}/edit`: name and description (a unit keeps its pipeline). */
export default function UnitEditScreen() {
  const { t } = useTranslation();
  const { projectId } = useParams();
  const record = useUnitRecord(projectId);
  return (
    <RecordView record={record} title={t('Edit unit')}>
      {(unit) => <EditUnit unit={unit} record={record} />}
    </RecordView>
  );
}

function EditUnit({ unit, record }: { unit: TUnit; record: TRecord<TUnit, TUnitPatch> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const project = useProject(unit.project);
  const abilities = useWorkspaceAbilities(project.data?.workspace);
  const submit = async (values: TUnitFormValues, setErrors: (errors: Record<string, string>) => void) => {
    const saved = await record.save(
      { name: values.name.trim(), description: values.description },
      { fields: unitFormFields, setErrors },
    );
    if (saved) await navigate(paths.app.unit(unit.project, unit.id));
  };
  return (
    <PageCard title={t('Edit unit')}>
      {abilities !== null && !abilities.units.update ? (
        <Alert color="yellow" data-testid="unit-edit-denied">
          {t('Your role does not allow editing units in this project.')}
        </Alert>
      ) : (
        <UnitForm
          initialValues={{ name: unit.name, description: unit.description, pipeline: String(unit.pipeline) }}
          onSubmit={submit}
          submitLabel={t('Save')}
          testPrefix="unit-edit"
          extraActions={
            <Button component={Link} to={paths.app.unit(unit.project, unit.id)} variant="default">
              {t('Cancel')}
            </Button>
          }
        />
      )}
    </PageCard>
  );
}
