import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { queryClient } from '../../../shared/api/query-client';
import { useRecord } from '../../../shared/records';
import { pipelineRecordQueryOptions, useDeletePipeline, useUpdatePipeline, type TPipelinePatch } from '../crud-api';

/** The pipeline of the URL (`pipelineId`) through the record loader; its home is the project's pipeline list. */
export function usePipelineRecord(projectId: number) {
  const { t } = useTranslation();
  const update = useUpdatePipeline(projectId);
  const remove = useDeletePipeline(projectId);
  return useRecord({
    model: 'pipeline',
    label: t('Pipeline'),
    query: pipelineRecordQueryOptions,
    homePath: () => paths.app.pipelines(projectId),
    save: async (id, changes: TPipelinePatch) => {
      await update.mutateAsync({ id, changes });
      return queryClient.fetchQuery(pipelineRecordQueryOptions(id));
    },
    remove: (id) => remove.mutateAsync(id),
  });
}
