import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { useRecord } from '../../../shared/records';
import { unitQueryOptions, useDeleteUnit, useUpdateUnit, type TUnitPatch } from '../api';

/**
 * The unit of the URL (`unitId`) through the record loader; its home is the project's unit list
 * (the project id is in the URL too).
 */
export function useUnitRecord(projectId: string | undefined) {
  const { t } = useTranslation();
  const update = useUpdateUnit();
  const remove = useDeleteUnit();
  return useRecord({
    model: 'unit',
    label: t('Unit'),
    query: unitQueryOptions,
    homePath: (unit) =>
      unit ? paths.app.units(unit.project) : projectId ? paths.app.units(projectId) : paths.app.dashboard(),
    save: (id, changes: TUnitPatch) => update.mutateAsync({ id, changes }),
    remove: (id) => remove.mutateAsync(id),
  });
}
