import { Button, Group, Text } from '@mantine/core';
import { IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/ui/toast';
import { startTimer, stopTimer, useTimer } from '../api';
import { formatHours, localToday } from '../lib/week';
import { reportTimeError } from './week-grid';

/**
 * Start and stop the caller's timer on a task (docs/time.md): stopping adds the time, rounded up to
 * a quarter hour, to today's log. A timer running on another task is named instead.
 */
export function TimerButton({ taskId }: { taskId: number }) {
  const { t } = useTranslation();
  const timer = useTimer();
  const [busy, setBusy] = useState(false);
  const running = timer.data?.timer ?? null;
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } catch (caught) {
      reportTimeError(caught, t('Unknown error'));
    } finally {
      setBusy(false);
    }
  };
  if (running && running.task.id !== taskId)
    return (
      <Text size="sm" c="dimmed" data-testid="task-timer-elsewhere">
        {t('A timer runs on {{task}}.', { task: `${running.task.unit} · ${running.task.stage}` })}
      </Text>
    );
  return running ? (
    <Group gap="xs">
      <Button
        size="xs"
        color="red"
        variant="light"
        leftSection={<IconPlayerStop size={14} />}
        loading={busy}
        data-testid="task-timer-stop"
        onClick={() =>
          void run(async () => {
            const log = await stopTimer(localToday());
            showToast({ kind: 'success', message: t('Logged: {{hours}} h today', { hours: formatHours(log.hours) }) });
          })
        }
      >
        {t('Stop timer')}
      </Button>
    </Group>
  ) : (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconPlayerPlay size={14} />}
      loading={busy || timer.isPending}
      data-testid="task-timer-start"
      onClick={() => void run(() => startTimer(taskId))}
    >
      {t('Start timer')}
    </Button>
  );
}
