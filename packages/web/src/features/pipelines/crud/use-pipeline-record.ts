import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { useRecord } from '../../../shared/records';
import { pipelineRecordQueryOptions, useDeletePipeline, useUpdatePipeline, type TPipelinePatch } from '../crud-api';

/** The pipeline of the URL (`pipelineId`) through the record loader; its home is the project's pipeline list. */
export function usePipelineRecord(projectId: number) {
  const { t } = useTranslation();
  const update = useUpdatePipeline();
  const remove = useDeletePipeline(projectId);
  return useRecord({
    model: 'pipeline',
    label: t('Pipeline'),
    query: pipelineRecordQueryOptions,
    homePath: () => paths.app.pipelines(projectId),
    save: (id, changes: TPipelinePatch) => update.mutateAsync({ id, changes }),
    remove: (id) => remove.mutateAsync(id),
  });
}
