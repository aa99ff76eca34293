import { Button, Group, Stack, Text } from '@mantine/core';
import { IconBellRinging, IconHandGrab } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TTask } from '@stageline/shared';
import { showToast } from '../../../shared/ui/toast';
import { TeamBadge } from '../../teams';
import { useTaskCommand } from '../api';
import { showTaskUpdateError } from './task-errors';

/** "Take" from a team queue (docs/review-rules.md): the caller becomes an assignee. */
export function TakeTaskButton({ taskId, size = 'sm' }: { taskId: number; size?: 'xs' | 'sm' }) {
  const { t } = useTranslation();
  const command = useTaskCommand(taskId);
  return (
    <Button
      size={size}
      variant="light"
      leftSection={<IconHandGrab size={14} />}
      loading={command.isPending}
      onClick={() =>
        void command
          .mutateAsync({ kind: 'take' })
          .then(() => showToast({ kind: 'success', message: t('The task is yours') }), showTaskUpdateError)
      }
      data-testid="task-take"
    >
      {t('Take')}
    </Button>
  );
}

/**
 * The task's teams and review rules: its assignee and reviewer teams, each rule's progress in the
 * latest round ("Lighting leads 1/1 · total 1/2"), Take and "Remind reviewers", each shown only when
 * the server says the caller may (`abilities.take`, `abilities.remind`).
 */
export function TaskTeams({ task }: { task: TTask }) {
  const { t } = useTranslation();
  const command = useTaskCommand(task.id);
  const assigneeTeams = task.assignee_teams ?? [];
  const reviewerTeams = task.reviewer_teams ?? [];
  const rules = task.review_rules ?? [];
  if (!assigneeTeams.length && !reviewerTeams.length && !rules.length && !task.abilities.take && !task.abilities.remind)
    return null;
  const progress = rules
    .map((rule) =>
      rule.team
        ? t('{{team}} {{approved}}/{{required}}', {
            team: rule.team.name,
            approved: rule.approved,
            required: rule.required,
          })
        : t('total {{approved}}/{{required}}', { approved: rule.approved, required: rule.required }),
    )
    .join(' · ');
  return (
    <Stack gap={6} data-testid="task-teams">
      {assigneeTeams.length ? (
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            {t('Assignee teams')}:
          </Text>
          {assigneeTeams.map((team) => (
            <TeamBadge key={team.id} team={team} />
          ))}
        </Group>
      ) : null}
      {reviewerTeams.length ? (
        <Group gap={6}>
          <Text size="sm" c="dimmed">
            {t('Reviewer teams')}:
          </Text>
          {reviewerTeams.map((team) => (
            <TeamBadge key={team.id} team={team} />
          ))}
        </Group>
      ) : null}
      {progress ? (
        <Text size="sm" data-testid="task-rule-progress" data-met={rules.every((r) => r.met)}>
          {t('Approvals')}: {progress}
        </Text>
      ) : null}
      <Group gap="xs">
        {task.abilities.take ? <TakeTaskButton taskId={task.id} /> : null}
        {task.abilities.remind ? (
          <Button
            size="sm"
            variant="default"
            leftSection={<IconBellRinging size={14} />}
            loading={command.isPending}
            onClick={() =>
              void command
                .mutateAsync({ kind: 'remind' })
                .then(() => showToast({ kind: 'success', message: t('Reviewers reminded') }), showTaskUpdateError)
            }
            data-testid="task-remind"
          >
            {t('Remind reviewers')}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}
