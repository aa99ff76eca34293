import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { parseRecordId } from '../../../shared/records';
import { CrumbStep, type TRecordCrumbsProps } from '../../../shared/ui/crumb';
import { PipelineCrumb } from '../../pipelines/crud';
import { unitQueryOptions } from '../api';

/**
 * The unit's steps of the breadcrumb trail: its pipeline once the unit is known, then its name
 * ('Unit {id}' until then).
 */
export function UnitCrumbs({ params, current }: TRecordCrumbsProps) {
  const { t } = useTranslation();
  const id = parseRecordId(params.unitId);
  const unit = useQuery({ ...unitQueryOptions(id ?? 0), enabled: id !== null }).data;
  return (
    <>
      {unit ? (
        <CrumbStep
          label={<PipelineCrumb pipelineId={String(unit.pipeline)} />}
          to={paths.app.pipeline(unit.project, unit.pipeline)}
        />
      ) : null}
      <CrumbStep
        label={<span data-testid="crumb-unit">{unit?.name ?? t('Unit {{id}}', { id: params.unitId })}</span>}
        to={paths.app.unit(params.projectId ?? '', params.unitId ?? '')}
        current={current}
      />
    </>
  );
}
