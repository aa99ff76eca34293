import { Group, Tabs, Text } from '@mantine/core';
import { IconHistory, IconInfoCircle, IconListDetails, IconSitemap } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TTask } from '@stageline/shared';
import { RecordView, useRecord } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { FilesPanel } from '../../attachments';
import { CommentsPanel } from '../../comments';
import { HistoryTimeline } from '../../history';
import { useMembers } from '../../workspaces';
import { useWorkspaceAbilities } from '../../projects';
import { taskQueryOptions } from '../api';
import { TaskClientFeedback } from '../components/client-feedback';
import { TaskContext } from '../components/task-context';
import { TaskDetails } from '../components/task-details';
import { TaskDiagram } from '../components/task-diagram';

const tabs = ['details', 'context', 'diagram', 'changes'] as const;
type TTab = (typeof tabs)[number];

/** `/app/tasks/{taskId}`: task details with the tabs of docs/rules.md §Web; the open tab lives in `?tab=`. */
export default function TaskScreen() {
  const { t } = useTranslation();
  const record = useRecord({
    model: 'task',
    label: t('Task'),
    query: taskQueryOptions,
    homePath: () => paths.app.dashboard(),
  });
  return (
    <RecordView record={record} title={t('Task')}>
      {(task) => <TaskView task={task} />}
    </RecordView>
  );
}

function TaskView({ task }: { task: TTask }) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const abilities = useWorkspaceAbilities(task.project.workspace);
  const members = useMembers(task.project.workspace);
  const raw = params.get('tab');
  const tab: TTab = (tabs as readonly string[]).includes(raw ?? '') ? (raw as TTab) : 'details';
  const select = (value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (!value || value === 'details') next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true },
    );
  return (
    <PageCard
      documentTitle={[`${task.unit.name} · ${task.stage.name}`, task.project.name]}
      title={
        <Group gap="sm" wrap="nowrap" component="span">
          <span data-testid="task-title">
            {task.unit.name} · {task.stage.name}
          </span>
        </Group>
      }
    >
      <Text size="sm" c="dimmed" mt={-8}>
        {task.project.name} · {task.pipeline.name}
      </Text>
      <Tabs value={tab} onChange={select} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="details" leftSection={<IconInfoCircle size={16} />} data-testid="task-tab-details">
            {t('Details')}
          </Tabs.Tab>
          <Tabs.Tab value="context" leftSection={<IconHistory size={16} />} data-testid="task-tab-context">
            {t('Context')}
          </Tabs.Tab>
          <Tabs.Tab value="diagram" leftSection={<IconSitemap size={16} />} data-testid="task-tab-diagram">
            {t('Diagram')}
          </Tabs.Tab>
          <Tabs.Tab value="changes" leftSection={<IconListDetails size={16} />} data-testid="task-tab-changes">
            {t('History')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="details" pt="md">
          <TaskDetails task={task} />
        </Tabs.Panel>
        <Tabs.Panel value="context" pt="md">
          <TaskContext task={task} />
        </Tabs.Panel>
        <Tabs.Panel value="diagram" pt="md">
          <TaskDiagram pipelineId={task.pipeline.id} stageId={task.stage.id} />
        </Tabs.Panel>
        <Tabs.Panel value="changes" pt="md">
          <HistoryTimeline of={{ task: task.id }} people={new Map((members.data ?? []).map((m) => [m.id, m.name]))} />
        </Tabs.Panel>
      </Tabs>
      <TaskClientFeedback taskId={task.id} />
      <FilesPanel target={{ task: task.id }} canAttach={abilities?.attach ?? false} />
      <CommentsPanel target={{ task: task.id }} workspaceId={task.project.workspace} />
    </PageCard>
  );
}
