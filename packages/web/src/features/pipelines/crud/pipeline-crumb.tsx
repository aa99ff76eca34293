import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { parseRecordId } from '../../../shared/records';
import { pipelineRecordQueryOptions } from '../crud-api';

/** The pipeline's name in the breadcrumb trail, read from its query; 'Pipeline {id}' until it is known. */
export function PipelineCrumb({ pipelineId }: { pipelineId: string | undefined }) {
  const { t } = useTranslation();
  const id = parseRecordId(pipelineId);
  const pipeline = useQuery({ ...pipelineRecordQueryOptions(id ?? 0), enabled: id !== null });
  return <span data-testid="crumb-pipeline">{pipeline.data?.name ?? t('Pipeline {{id}}', { id: pipelineId })}</span>;
}
