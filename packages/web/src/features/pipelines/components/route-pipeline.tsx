import { Alert, Center, Loader } from '@mantine/core';
import { ReactFlowProvider } from '@xyflow/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { TPipeline } from '@stageline/shared';
import { parseRecordId } from '../../../shared/records';
import { useOpenProject, useProject } from '../../projects';
import { usePipelineRecord } from '../crud/use-pipeline-record';

/**
 * The pipeline a `.../pipelines/{pipelineId}` route names, for its view and its editor, through the
 * record loader as its edit screen: a loader while it comes; one that cannot be read (a wrong id, a
 * pipeline deleted meanwhile) says so and leads to the project's pipelines (docs/rules.md §Web).
 * Then `children` draws it inside React Flow's provider. Opening it opens its project (`useOpenProject`).
 */
export function RoutePipeline({ children }: { children: (pipeline: TPipeline, projectId: number) => ReactNode }) {
  const { t } = useTranslation();
  const projectId = parseRecordId(useParams().projectId);
  const record = usePipelineRecord(projectId ?? 0);
  // The view and the editor are pages of the project's workspace: opening them switches to it.
  const project = useProject(projectId ?? 0, projectId !== null);
  useOpenProject(project.data);
  if (projectId === null || record.status === 'no-id')
    return (
      <Alert color="red" role="alert" data-testid="record-no-id">
        {t('Error loading context: no id provided')}
      </Alert>
    );
  if (record.data === undefined)
    return (
      <Center mih={300} data-testid="record-loading" data-status={record.status}>
        <Loader />
      </Center>
    );
  return <ReactFlowProvider>{children(record.data, projectId)}</ReactFlowProvider>;
}
