import { Anchor, Badge, Group, Loader, Paper, SimpleGrid, Stack, Text, Timeline } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TTask, type TTaskStatus } from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { UserMarkdown } from '../../../shared/ui/user-markdown';
import { pipelineQuery } from '../../pipelines/read-only';
import { unitQueryOptions } from '../../units';
import { TaskStatusBadge } from '../../../shared/ui/task-status-badge';
import { HistoryFiles, useRoundFiles } from './round-files';

type TNeighbour = { task: number; stage: number; name: string; status: TTaskStatus };

/** History actions as people read them; an unknown action shows as it came. */
const actionLabels: Record<string, string> = {
  start: 'Started',
  submit: 'Submitted',
  accept: 'Accepted',
  reject: 'Rejected',
  set_status: 'Status changed',
  set_reviewers: 'Reviewers changed',
  send_back: 'Sent back for revision',
  log_time: 'Logged time',
  create: 'Created',
};

function NeighbourList({ title, items, testId }: { title: string; items: TNeighbour[]; testId: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid={testId}>
      <Text fw={600}>{title}</Text>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('None')}
        </Text>
      ) : (
        items.map((item) => (
          <Group
            key={item.task}
            justify="space-between"
            wrap="nowrap"
            data-testid="task-neighbour"
            data-task-id={item.task}
          >
            <Anchor component={Link} to={paths.app.task(item.task)} size="sm">
              {item.name}
            </Anchor>
            <TaskStatusBadge status={item.status} size="sm" />
          </Group>
        ))
      )}
    </Stack>
  );
}

/**
 * The Context tab: the unit, the tasks of the stages before and after this one (same unit), and
 * the task's history, newest first.
 */
export function TaskContext({ task }: { task: TTask }) {
  const { t } = useTranslation();
  const { formatCalendar, formatTime } = useDates();
  const unit = useQuery(unitQueryOptions(task.unit.id));
  const pipeline = useQuery(pipelineQuery(task.pipeline.id));

  const predecessors: TNeighbour[] = task.predecessors.map((p) => ({
    task: p.task,
    stage: p.stage,
    name: p.stage_name,
    status: p.status,
  }));
  let successors: TNeighbour[] | null = null;
  if (unit.data && pipeline.data) {
    const nodes = new Map(pipeline.data.nodes.map((n) => [n.id, n]));
    const byStage = new Map(unit.data.tasks.map((cell) => [cell.stage, cell]));
    successors = pipeline.data.edges
      .filter((e) => e.source === task.stage.id && nodes.get(e.target)?.kind === 'stage')
      .flatMap((e) => {
        const cell = byStage.get(e.target);
        const node = nodes.get(e.target);
        return cell && node ? [{ task: cell.id, stage: e.target, name: node.name, status: cell.status }] : [];
      });
  }
  const history = [...task.history].reverse();
  const ofRound = useRoundFiles(task.id);

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md" data-testid="task-context-unit">
        <Stack gap={4}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {t('Unit')}
          </Text>
          <Anchor component={Link} to={paths.app.unit(task.project.id, task.unit.id)} fw={600}>
            {task.unit.name}
          </Anchor>
          {unit.data?.description ? <UserMarkdown text={unit.data.description} /> : null}
        </Stack>
      </Paper>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <NeighbourList title={t('Previous stages')} items={predecessors} testId="task-predecessors" />
        {successors ? (
          <NeighbourList title={t('Next stages')} items={successors} testId="task-successors" />
        ) : (
          <Loader size="sm" />
        )}
      </SimpleGrid>
      <Stack gap="sm">
        <Text fw={600}>{t('History')}</Text>
        {history.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('No history yet.')}
          </Text>
        ) : (
          <Timeline bulletSize={14} lineWidth={2}>
            {history.map((entry) => (
              <Timeline.Item
                key={entry.id}
                data-testid="task-history-entry"
                title={
                  <Group gap="xs">
                    <Text size="sm" fw={600}>
                      {entry.actor?.name ?? t('System')}
                    </Text>
                    {entry.skipped_review ? (
                      <Text size="sm" c="orange" data-testid="task-history-skipped-review">
                        {t('set it to Done, skipping review')}
                      </Text>
                    ) : (
                      <Text size="sm">{t(actionLabels[entry.action] ?? entry.action)}</Text>
                    )}
                    {entry.iteration !== null ? (
                      <Badge size="xs" variant="outline">
                        {t('Round {{number}}', { number: entry.iteration })}
                      </Badge>
                    ) : null}
                  </Group>
                }
              >
                <Group gap={6} mt={4}>
                  {entry.from ? <TaskStatusBadge status={entry.from} size="xs" /> : null}
                  {entry.from || entry.to ? <Text size="xs">→</Text> : null}
                  {entry.to ? <TaskStatusBadge status={entry.to} size="xs" /> : null}
                </Group>
                {entry.action === 'submit' ? <HistoryFiles files={ofRound(entry.iteration)} /> : null}
                {entry.time ? (
                  <Text size="sm" mt={4} data-testid="task-history-time">
                    {t('{{hours}} h on {{date}}', { hours: entry.time.hours, date: entry.time.date })}
                  </Text>
                ) : null}
                {entry.comment ? (
                  <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }} data-testid="task-history-comment">
                    {entry.comment}
                  </Text>
                ) : null}
                <Text size="xs" c="dimmed" mt={4}>
                  {formatCalendar(entry.created_at)} {formatTime(entry.created_at)}
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Stack>
    </Stack>
  );
}
