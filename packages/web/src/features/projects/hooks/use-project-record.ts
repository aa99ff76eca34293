import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { useRecord } from '../../../shared/records';
import { projectQueryOptions, useDeleteProject, useUpdateProject, type TProjectPatch } from '../api';

/**
 * The project of the URL (`projectId`) through the record loader. Its home is the dashboard when
 * it failed to load, and its workspace once it has been deleted.
 */
export function useProjectRecord() {
  const { t } = useTranslation();
  const update = useUpdateProject();
  const remove = useDeleteProject();
  return useRecord({
    model: 'project',
    label: t('Project'),
    query: projectQueryOptions,
    homePath: (project) => (project ? paths.app.workspace(project.workspace) : paths.app.dashboard()),
    save: (id, changes: TProjectPatch) => update.mutateAsync({ id, changes }),
    remove: (id) => remove.mutateAsync(id),
  });
}
