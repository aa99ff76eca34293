import {
  Anchor,
  Avatar,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconGitBranch, IconPlus, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  flowOrder,
  paths,
  TaskStatuses,
  type TCountedPipelineSummary,
  type TProjectWorkload,
  type TTaskCountersDto,
} from '@stageline/shared';
import { EmptyState } from '../../../shared/ui/empty-state';
import { StatusBar } from '../../../shared/ui/status-bar';
import { overdueColor } from '../../../shared/ui/status-colors';
import { useProjectWorkload } from '../../projects';
import { usePipeline } from '../api';
import { usePipelines } from '../crud-api';
import { LoadError } from '../../../shared/ui/load-error';

/**
 * The project overview (issue 19, docs/design.md): each pipeline's progress as a bar of its tasks
 * in the status palette with done / total and overdue, each stage's on demand, and who carries the
 * open work. Pipelines' counters come with the list the app already reads, a pipeline's stages with
 * its detail when opened, the people from GET projects/{id}/workload/.
 */
export function ProjectProgress({ projectId, canCreate }: { projectId: number; canCreate: boolean }) {
  const { t } = useTranslation();
  const pipelines = usePipelines(projectId);
  const workload = useProjectWorkload(projectId);
  if (pipelines.isPending) return <Skeleton height={120} radius="md" />;
  if (pipelines.isError) return <LoadError retry={pipelines} />;
  if (pipelines.data.length === 0)
    return (
      <Paper withBorder radius="md" p="md">
        <EmptyState
          icon={<IconGitBranch size={22} />}
          title={t('No pipelines yet.')}
          testId="project-overview-empty"
          actions={
            canCreate ? (
              <Button
                component={Link}
                to={paths.app.pipelineCreate(projectId)}
                leftSection={<IconPlus size={16} />}
                data-testid="project-overview-create-pipeline"
              >
                {t('Create pipeline')}
              </Button>
            ) : null
          }
        >
          {t(
            'A pipeline is the chain of stages every unit goes through (say, Layout → Animation → Render). Create one, draw its stages, then add units: each gets a task on every stage.',
          )}
        </EmptyState>
      </Paper>
    );
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md" data-testid="project-overview">
      <Stack gap="sm" style={{ gridColumn: 'span 2' }} component="section" aria-label={t('Progress')}>
        <Title order={2} size="h5">
          {t('Progress')}
        </Title>
        {pipelines.data.map((pipeline) => (
          <PipelineProgress key={pipeline.id} projectId={projectId} pipeline={pipeline} />
        ))}
      </Stack>
      <Stack gap="sm" component="section" aria-label={t('Who is loaded')}>
        <Title order={2} size="h5">
          {t('Who is loaded')}
        </Title>
        <Workload data={workload.data} pending={workload.isPending} />
      </Stack>
    </SimpleGrid>
  );
}

function PipelineProgress({ projectId, pipeline }: { projectId: number; pipeline: TCountedPipelineSummary }) {
  const { t } = useTranslation();
  const counters = pipeline.task_counters;
  const total = TaskStatuses.reduce((sum, status) => sum + counters[status], 0);
  const done = counters.done;
  const percent = total === 0 ? 0 : Math.round((done / total) * 100);
  const [stagesOpen, setStagesOpen] = useState(false);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="project-overview-pipeline" data-id={pipeline.id}>
      <Stack gap={8}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Anchor
            component={Link}
            to={paths.app.pipeline(projectId, pipeline.id)}
            fw={600}
            c="var(--mantine-color-text)"
            underline="hover"
          >
            {pipeline.name}
          </Anchor>
          <Group gap={6} wrap="wrap">
            <Text size="sm" c="dimmed" data-testid="project-overview-done">
              {t('{{done}} of {{total}} tasks done', { done, total })}
              {total > 0 ? ` · ${percent}%` : ''}
            </Text>
            {counters.overdue > 0 ? (
              <Badge color={overdueColor} variant="filled" size="sm" data-testid="project-overview-overdue">
                {t('Overdue')}: {counters.overdue}
              </Badge>
            ) : null}
          </Group>
        </Group>
        <StatusBar counters={counters} testId="project-overview-bar" />
        <Group>
          <Button
            variant="subtle"
            color="gray"
            size="compact-xs"
            leftSection={stagesOpen ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
            aria-expanded={stagesOpen}
            aria-label={t('Show the stages of {{pipeline}}', { pipeline: pipeline.name })}
            onClick={() => setStagesOpen((open) => !open)}
            data-testid="project-overview-stages-toggle"
          >
            {t('{{count}} stages', { count: pipeline.stages_count })}
          </Button>
        </Group>
        {stagesOpen ? <StageProgress pipelineId={pipeline.id} /> : null}
      </Stack>
    </Paper>
  );
}

const noTasks: TTaskCountersDto = { todo: 0, in_progress: 0, review: 0, edit: 0, done: 0, overdue: 0 };

/** Each stage of a pipeline in flow order: its tasks as a bar, done of total, and overdue. */
function StageProgress({ pipelineId }: { pipelineId: number }) {
  const { t } = useTranslation();
  const pipeline = usePipeline(pipelineId);
  if (pipeline.isPending) return <Skeleton height={48} radius="sm" />;
  if (pipeline.isError) return <LoadError retry={pipeline} />;
  const { nodes, edges, stage_counters: byStage } = pipeline.data;
  const names = new Map(nodes.map((node) => [node.id, node.name]));
  return (
    <Stack gap={6} data-testid="project-overview-stages">
      {flowOrder(nodes, edges).map((id) => {
        const counters = byStage[String(id)] ?? noTasks;
        const total = TaskStatuses.reduce((sum, status) => sum + counters[status], 0);
        return (
          <Group key={id} gap="sm" wrap="nowrap" data-testid="project-overview-stage">
            <Text size="sm" w="30%" truncate="end" title={names.get(id)}>
              {names.get(id)}
            </Text>
            <Box style={{ flex: 1 }}>
              <StatusBar counters={counters} />
            </Box>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="project-overview-stage-done">
              {t('{{done}}/{{total}} done', { done: counters.done, total })}
              {counters.overdue > 0 ? ` · ${t('Overdue')}: ${counters.overdue}` : ''}
            </Text>
          </Group>
        );
      })}
    </Stack>
  );
}

function Workload({ data, pending }: { data: TProjectWorkload | undefined; pending: boolean }) {
  const { t } = useTranslation();
  if (pending) return <Skeleton height={80} radius="md" />;
  if (!data || data.people.length === 0)
    return (
      <Paper withBorder radius="md" p="sm">
        <Group gap="xs" wrap="nowrap" data-testid="project-workload-empty">
          <IconUsers size={18} aria-hidden />
          <Text size="sm" c="dimmed">
            {t('No open tasks are assigned yet. Set default assignees on a stage, or assign a task from its page.')}
          </Text>
        </Group>
      </Paper>
    );
  const most = Math.max(...data.people.map((person) => person.open));
  return (
    <Paper withBorder radius="md" p="sm">
      <Stack gap="xs" data-testid="project-workload">
        {data.people.map((person) => (
          <Group key={person.user_id} gap="sm" wrap="nowrap" data-testid="project-workload-person">
            <Avatar name={person.name} color="initials" size={28} alt={person.name} />
            <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
              <Group justify="space-between" gap={4} wrap="nowrap">
                <Text size="sm" fw={500} truncate="end">
                  {person.name}
                </Text>
                <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
                  {t('{{count}} open', { count: person.open })}
                </Text>
              </Group>
              <div
                style={{
                  height: 4,
                  borderRadius: 2,
                  width: `${Math.max(8, (person.open / most) * 100)}%`,
                  background:
                    person.overdue > 0
                      ? `var(--mantine-color-${overdueColor}-filled)`
                      : 'var(--mantine-primary-color-filled)',
                }}
                title={person.overdue > 0 ? `${t('Overdue')}: ${person.overdue}` : undefined}
              />
            </Stack>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
