import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { can, paths, type TProject } from '@stageline/shared';
import { RecordView } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { useOpenProject, useProjectRecord, useWorkspaceRole } from '../../projects';
import { usePipelines } from '../crud-api';
import { PipelineListTable } from '../crud/pipeline-list-table';

/** The pipelines of a project with their task counters; Create for Members and above. */
export default function PipelineListScreen() {
  const { t } = useTranslation();
  const project = useProjectRecord();
  useOpenProject(project.data);
  return (
    <RecordView record={project} title={t('Pipelines')}>
      {(data) => <PipelineList project={data} />}
    </RecordView>
  );
}

function PipelineList({ project }: { project: TProject }) {
  const { t } = useTranslation();
  const role = useWorkspaceRole(project.workspace);
  const pipelines = usePipelines(project.id);
  return (
    <PageCard
      title={t('Pipelines')}
      actions={
        can(role, 'pipeline', 'create') ? (
          <Button
            component={Link}
            to={paths.app.pipelineCreate(project.id)}
            leftSection={<IconPlus size={16} />}
            data-testid="pipeline-create-open"
          >
            {t('Create pipeline')}
          </Button>
        ) : null
      }
    >
      {pipelines.isPending ? (
        <Group justify="center" py="xl">
          <Loader />
        </Group>
      ) : pipelines.isError ? (
        <Alert color="red">{t('Error while loading data')}</Alert>
      ) : pipelines.data.length === 0 ? (
        <Text c="dimmed" data-testid="pipeline-list-empty">
          {t('No pipelines yet.')}
        </Text>
      ) : (
        <PipelineListTable projectId={project.id} pipelines={pipelines.data} />
      )}
    </PageCard>
  );
}
