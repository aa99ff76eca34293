import { Anchor, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlarm, IconChecklist, IconEye, IconUsersGroup } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TTaskListItem } from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { ExportCsvButton } from '../../../shared/ui/export-csv-button';
import { PageCard } from '../../../shared/ui/page-card';
import { TaskFlags, TaskStatusBadge } from '../../../shared/ui/task-status-badge';
import { TakeTaskButton, useTaskPages, type TTaskListQuery } from '../../tasks';
import { TeamBadge } from '../../teams';
import { RequireWorkspace } from '../../workspaces';
import { LoadError } from '../../../shared/ui/load-error';

/**
 * `/app`: My work in the current workspace (issue 6): ready tasks the caller can work on first, then
 * the reviews still waiting for the caller's reaction in their open round, then overdue; each
 * section a page at a time with 'Show more'.
 */
export default function DashboardScreen() {
  return <RequireWorkspace>{(workspaceId) => <MyWork workspaceId={workspaceId} />}</RequireWorkspace>;
}

/** Tasks per section and per 'Show more'. */
const SectionPage = 10;

function MyWork({ workspaceId }: { workspaceId: number }) {
  const { t } = useTranslation();
  return (
    <PageCard
      wide
      title={t('My work')}
      actions={
        <ExportCsvButton
          path="tasks/export.csv"
          query={{ workspace: workspaceId, assignee: 'me' }}
          filename="my-tasks.csv"
          testId="my-work-export"
        />
      }
    >
      <Stack gap="xl">
        <Section
          title={t('Ready to work on')}
          icon={<IconChecklist size={18} />}
          query={{ workspace: workspaceId, assignee: 'me', ready: 'true', workable: 'true', limit: SectionPage }}
          empty={t('Nothing is ready for you right now.')}
          testId="my-work-ready"
        />
        <Section
          title={t('Awaiting my review')}
          icon={<IconEye size={18} />}
          query={{ workspace: workspaceId, reviewer: 'me', awaiting: 'true', limit: SectionPage }}
          empty={t('No tasks are waiting for your review.')}
          testId="my-work-review"
        />
        {/* Teams and review rules: tasks assigned to one of my teams, until someone takes them. */}
        <Section
          title={t('Team queue')}
          icon={<IconUsersGroup size={18} />}
          query={{ workspace: workspaceId, queue: 'team', limit: SectionPage }}
          empty={t('No tasks are waiting in your teams’ queues.')}
          testId="my-work-team-queue"
          action={(task) => <TakeTaskButton taskId={task.id} size="xs" />}
        />
        <Section
          title={t('Overdue')}
          icon={<IconAlarm size={18} />}
          query={{ workspace: workspaceId, assignee: 'me', overdue: 'true', limit: SectionPage }}
          empty={t('Nothing is overdue.')}
          testId="my-work-overdue"
        />
      </Stack>
    </PageCard>
  );
}

function Section({
  title,
  icon,
  query,
  empty,
  testId,
  action,
}: {
  title: string;
  icon: ReactNode;
  query: TTaskListQuery;
  empty: string;
  testId: string;
  action?: (task: TTaskListItem) => ReactNode;
}) {
  const { t } = useTranslation();
  const list = useTaskPages(query);
  const count = list.data?.pages[0]?.count;
  const tasks = list.data?.pages.flatMap((page) => page.results) ?? [];
  return (
    <Stack gap="xs" data-testid={testId} data-count={count}>
      <Group gap="xs">
        {icon}
        <Title order={2} size="h4">
          {title}
        </Title>
        {count !== undefined ? (
          <Badge variant="light" data-testid={`${testId}-count`}>
            {count}
          </Badge>
        ) : null}
      </Group>
      {list.isPending ? (
        <Loader size="sm" />
      ) : list.isError ? (
        <LoadError retry={list} />
      ) : tasks.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid={`${testId}-empty`}>
          {empty}
        </Text>
      ) : (
        <Stack gap={6}>
          {tasks.map((task) => (
            <TaskRow key={task.id} task={task} action={action?.(task)} />
          ))}
          {list.hasNextPage ? (
            <Group gap="sm">
              <Button
                variant="subtle"
                size="xs"
                loading={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
                data-testid={`${testId}-more`}
              >
                {t('Show more')}
              </Button>
              <Text size="xs" c="dimmed">
                {t('Showing {{shown}} of {{count}}', { shown: tasks.length, count })}
              </Text>
            </Group>
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}

function TaskRow({ task, action }: { task: TTaskListItem; action?: ReactNode }) {
  const { t } = useTranslation();
  const { formatCalendar } = useDates();
  return (
    <Paper withBorder radius="md" px="sm" py={8} data-testid="my-work-item" data-task-id={task.id}>
      {/* On a phone the flags, status and due date go under the name instead of squeezing it. */}
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={0} style={{ minWidth: 0, flex: '1 1 180px' }}>
          <Anchor
            component={Link}
            to={paths.app.task(task.id)}
            fw={500}
            truncate="end"
            data-nav-item
            data-testid="my-work-task-link"
          >
            {task.unit.name} · {task.stage.name}
          </Anchor>
          <Text size="xs" c="dimmed" truncate="end">
            {task.project.name} ·{' '}
            <Anchor
              component={Link}
              to={`${paths.app.pipeline(task.project.id, task.pipeline.id)}?task=${task.id}`}
              inherit
              c="dimmed"
              underline="always"
              title={t('Show on the pipeline')}
              data-testid="my-work-on-pipeline"
            >
              {task.pipeline.name}
            </Anchor>
          </Text>
        </Stack>
        <Group gap="xs" wrap="nowrap" ml="auto">
          {(task.assignee_teams ?? []).map((team) => (
            <TeamBadge key={team.id} team={team} />
          ))}
          {action}
          <TaskFlags ready={task.ready} overdue={task.overdue} status={task.status} />
          <TaskStatusBadge status={task.status} />
          <Text size="sm" w={90} ta="right" c={task.overdue ? 'red' : 'dimmed'} data-testid="my-work-due">
            {task.due_date ? formatCalendar(task.due_date) : t('No due date')}
          </Text>
        </Group>
      </Group>
    </Paper>
  );
}
