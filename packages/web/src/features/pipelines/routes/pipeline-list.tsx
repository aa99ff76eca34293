import { Button, Group, Loader } from '@mantine/core';
import { IconGitBranch, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TProject } from '@stageline/shared';
import { RecordView } from '../../../shared/records';
import { EmptyState } from '../../../shared/ui/empty-state';
import { PageCard } from '../../../shared/ui/page-card';
import { useOpenProject, useProjectRecord, useWorkspaceAbilities } from '../../projects';
import { usePipelines } from '../crud-api';
import { PipelineListTable } from '../crud/pipeline-list-table';
import { LoadError } from '../../../shared/ui/load-error';

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
  const abilities = useWorkspaceAbilities(project.workspace);
  const pipelines = usePipelines(project.id);
  return (
    <PageCard
      title={t('Pipelines')}
      documentTitle={[t('Pipelines'), project.name]}
      actions={
        (abilities?.pipelines.create ?? false) ? (
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
        <LoadError retry={pipelines} />
      ) : pipelines.data.length === 0 ? (
        <EmptyState icon={<IconGitBranch size={22} />} title={t('No pipelines yet.')} testId="pipeline-list-empty">
          {t(
            'A pipeline is the chain of stages every unit goes through (say, Layout → Animation → Render). Create one, draw its stages, then add units: each gets a task on every stage.',
          )}
        </EmptyState>
      ) : (
        <PipelineListTable projectId={project.id} pipelines={pipelines.data} />
      )}
    </PageCard>
  );
}
