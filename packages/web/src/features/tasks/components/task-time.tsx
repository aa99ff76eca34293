import { Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hoursAsDays, TimeLimits, ZEstimate, type TTask } from '@stageline/shared';
import { TimerButton } from '../../time';
import { workspaceQueryOptions } from '../../workspaces';
import { useTaskCommand } from '../api';
import { showTaskUpdateError } from './task-errors';

/**
 * The Details tab's time (docs/time.md): the estimate in hours and in days of the workspace's working
 * day, editable by whoever may edit the task, the hours logged on it, and the caller's timer.
 */
export function TaskTime({ task }: { task: TTask }) {
  const { t } = useTranslation();
  const workspace = useQuery(workspaceQueryOptions(task.project.workspace));
  const hoursPerDay = workspace.data?.hours_per_day ?? TimeLimits.hoursPerDay.default;
  const command = useTaskCommand(task.id);
  const estimate = task.estimate_hours ?? null;
  const [draft, setDraft] = useState<number | string>(estimate ?? '');
  const [error, setError] = useState<string | null>(null);
  const spent = task.spent_hours ?? 0;
  const changed = (draft === '' ? null : Number(draft)) !== estimate;

  const save = () => {
    const value = draft === '' ? null : Number(draft);
    if (value !== null) {
      const checked = ZEstimate.safeParse(value);
      if (!checked.success) {
        setError(t(checked.error.issues[0]?.message ?? 'Invalid value.'));
        return;
      }
    }
    setError(null);
    command.mutate({ kind: 'patch', body: { estimate_hours: value } }, { onError: showTaskUpdateError });
  };

  return (
    <Stack gap="xs" data-testid="task-time">
      <Text fw={600}>{t('Time')}</Text>
      {task.abilities.update ? (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <NumberInput
            label={t('Estimate, hours')}
            value={draft}
            onChange={setDraft}
            min={0}
            step={0.25}
            decimalScale={2}
            allowNegative={false}
            error={error}
            w={140}
            data-testid="task-estimate-input"
            onKeyDown={(event) => {
              if (event.key === 'Enter') save();
            }}
          />
          <Button
            size="sm"
            variant="default"
            disabled={!changed}
            loading={command.isPending}
            onClick={save}
            data-testid="task-estimate-save"
          >
            {t('Save')}
          </Button>
        </Group>
      ) : null}
      <Text size="sm" data-testid="task-estimate" data-hours={estimate ?? ''}>
        {estimate === null
          ? t('No estimate')
          : t('Estimate: {{hours}} h ({{days}} d)', { hours: estimate, days: hoursAsDays(estimate, hoursPerDay) })}
      </Text>
      <Text size="sm" data-testid="task-spent" data-hours={spent}>
        {t('Logged: {{hours}} h', { hours: Math.round(spent * 100) / 100 })}
      </Text>
      {task.abilities.log_time ? <TimerButton taskId={task.id} /> : null}
    </Stack>
  );
}
