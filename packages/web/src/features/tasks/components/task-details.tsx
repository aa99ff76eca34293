import { Alert, Anchor, Badge, Divider, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, ReviewModeLabels, type TTask } from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { TaskActions } from './task-actions';
import { TaskAssignment } from './task-assignment';
import { TaskTeams } from './task-teams';
import { TaskTime } from './task-time';
import { TaskFlags, TaskStatusBadge } from '../../../shared/ui/task-status-badge';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      {/* Long names wrap rather than run into the next field (narrow side panels included). */}
      <div style={{ overflowWrap: 'anywhere' }}>{children}</div>
    </Stack>
  );
}

/** How the latest review round closed, once it has: accepted, returned to Edit, sent back, or overridden. */
function RoundOutcome({ task }: { task: TTask }) {
  const { t } = useTranslation();
  const iteration = task.iteration;
  if (!iteration?.closed || !iteration.outcome) return null;
  const number = iteration.number;
  const stageName = (id: number) => task.predecessors.find((p) => p.stage === id)?.stage_name;
  const text = {
    done: () => t('Round {{number}} closed: accepted', { number }),
    edit: () => t('Round {{number}} closed: returned to Edit', { number }),
    returned: () =>
      t('Round {{number}} closed: sent back to {{stages}}', {
        number,
        stages: (iteration.return_to ?? []).flatMap((id) => stageName(id) ?? []).join(', '),
      }),
    overridden: () => t('Round {{number}} closed: the status was changed by hand', { number }),
  }[iteration.outcome]();
  const color = { done: 'teal', edit: 'orange', returned: 'orange', overridden: 'dimmed' }[iteration.outcome];
  return (
    <Text size="sm" fw={500} c={color} data-testid="task-round-outcome" data-outcome={iteration.outcome}>
      {text}
    </Text>
  );
}

/**
 * The latest review decision (accept or reject) with who made it, when and their comment: the reason
 * a task came back is what its assignee needs first, so it is on Details, not only in the history
 * (docs/decisions/tasks-and-reviews.md, decision 190).
 */
function LatestDecision({ task }: { task: TTask }) {
  const { t } = useTranslation();
  const { formatCalendar, formatTime } = useDates();
  const entry = task.history.findLast((h) => h.action === 'accept' || h.action === 'reject');
  if (!entry) return null;
  const rejected = entry.action === 'reject';
  const who = entry.actor?.name ?? t('Deleted user');
  return (
    <Alert
      color={rejected ? 'red' : 'green'}
      variant="light"
      p="sm"
      data-testid="task-latest-decision"
      data-action={entry.action}
      title={
        rejected
          ? t('Latest decision: rejected by {{name}}', { name: who })
          : t('Latest decision: accepted by {{name}}', { name: who })
      }
    >
      <Stack gap={4}>
        {entry.comment ? (
          <Text
            size="sm"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
            data-testid="task-latest-decision-comment"
          >
            {entry.comment}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {t('No comment.')}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {entry.iteration !== null ? `${t('Round {{number}}', { number: entry.iteration })} · ` : ''}
          {formatCalendar(entry.created_at)} {formatTime(entry.created_at)}
        </Text>
      </Stack>
    </Alert>
  );
}

/** The Details tab: status and flags, where the task belongs, what the caller can do, the review round. */
export function TaskDetails({ task }: { task: TTask }) {
  const { t } = useTranslation();
  const { formatCalendar, formatTime } = useDates();
  const mode = task.stage.review_mode;
  const nameOf = (id: number) =>
    [...task.reviewers, ...task.assignees].find((p) => p.id === id)?.name ?? t('User {{id}}', { id });
  const iteration = task.iteration;
  return (
    <Stack gap="lg">
      <Group gap="sm">
        <TaskStatusBadge status={task.status} size="lg" testId="task-status" />
        <TaskFlags ready={task.ready} overdue={task.overdue} status={task.status} />
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 4 }} spacing="md">
        <Field label={t('Unit')}>
          <Anchor component={Link} to={paths.app.unit(task.project.id, task.unit.id)} data-testid="task-unit-link">
            {task.unit.name}
          </Anchor>
        </Field>
        <Field label={t('Stage')}>
          <Anchor
            component={Link}
            to={`${paths.app.pipeline(task.project.id, task.pipeline.id)}?stage=${task.stage.id}`}
            data-testid="task-stage-link"
          >
            {task.stage.name}
          </Anchor>
        </Field>
        <Field label={t('Pipeline')}>
          <Anchor
            component={Link}
            to={paths.app.pipeline(task.project.id, task.pipeline.id)}
            data-testid="task-pipeline-link"
          >
            {task.pipeline.name}
          </Anchor>
        </Field>
        <Field label={t('Due date')}>
          <Text size="sm" c={task.overdue ? 'red' : undefined} data-testid="task-due-label">
            {task.due_date ? `${formatCalendar(task.due_date)} ${formatTime(task.due_date)}` : t('No due date')}
          </Text>
        </Field>
      </SimpleGrid>
      <TaskActions task={task} />
      <TaskTeams task={task} />
      <TaskTime task={task} />
      <Divider />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xl">
        <TaskAssignment task={task} workspaceId={task.project.workspace} editable={task.abilities.update} />
        <Stack gap="sm" data-testid="task-iteration">
          <Text fw={600}>{t('Review')}</Text>
          {mode ? (
            <Text size="sm">
              {t('Review mode')}: {t(ReviewModeLabels[mode])}
            </Text>
          ) : null}
          {iteration ? (
            <>
              <Text size="sm" data-testid="task-iteration-number">
                {t('Review round {{number}}', { number: iteration.number })}
              </Text>
              <RoundOutcome task={task} />
              <LatestDecision task={task} />
              <Field label={t('Accepted by')}>
                <Group gap={4} data-testid="task-accepted-by">
                  {iteration.accepted_by.length
                    ? iteration.accepted_by.map((id) => (
                        <Badge key={id} color="green" variant="light">
                          {nameOf(id)}
                        </Badge>
                      ))
                    : '—'}
                </Group>
              </Field>
              <Field label={t('Rejected by')}>
                <Group gap={4} data-testid="task-rejected-by">
                  {iteration.rejected_by.length
                    ? iteration.rejected_by.map((id) => (
                        <Badge key={id} color="red" variant="light">
                          {nameOf(id)}
                        </Badge>
                      ))
                    : '—'}
                </Group>
              </Field>
            </>
          ) : (
            <Text size="sm" c="dimmed">
              {t('Not submitted for review yet.')}
            </Text>
          )}
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
