import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCheck, IconPlayerPlay, IconSend, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ReviewRuleMessages, TaskStatusLabels, type TTask } from '@stageline/shared';
import { useRegisterCommands } from '../../../shared/lib/commands';
import { showToast } from '../../../shared/ui/toast';
import { useTaskCommand, type TTaskCommand } from '../api';
import { AcceptDialog, RejectDialog } from './reject-dialog';
import { CurrentRoundFiles, SubmitWithFiles } from './round-files';
import { showTaskUpdateError } from './task-errors';

/**
 * Start, Submit, Accept, Reject and the Member's status select: exactly those the server says the
 * caller may use now (`task.abilities`, docs/architecture.md "Abilities").
 */
export function TaskActions({ task }: { task: TTask }) {
  const { t } = useTranslation();
  const command = useTaskCommand(task.id);
  const [rejecting, reject] = useDisclosure(false);
  const [accepting, accept] = useDisclosure(false);
  const able = task.abilities;

  const run = async (next: TTaskCommand, success: string): Promise<boolean> => {
    try {
      await command.mutateAsync(next);
      showToast({ kind: 'success', message: success });
      return true;
    } catch (error) {
      showTaskUpdateError(error);
      return false;
    }
  };

  const acceptHint =
    able.accept_outcome === 'done'
      ? t('Your acceptance completes the review: the task becomes Done.')
      : able.accept_outcome === 'edit'
        ? t('A reviewer has already rejected: the task goes to Edit.')
        : t('The task stays in review until the other reviewers react.');
  const statuses = able.statuses.map((status) => ({ value: status, label: t(TaskStatusLabels[status]) }));

  // The same actions in the command palette and on their keys (a: accept, r: reject).
  useRegisterCommands(`task-actions:${task.id}`, [
    ...(able.start
      ? [{ id: 'task.start', label: t('Start the task'), run: () => void run({ kind: 'start' }, t('Task started')) }]
      : []),
    ...(able.submit
      ? [
          {
            id: 'task.submit',
            label: t('Submit the task'),
            run: () => void run({ kind: 'submit' }, t('Task submitted')),
          },
        ]
      : []),
    ...(able.review
      ? [
          { id: 'task.accept', label: t('Accept the task'), shortcut: 'a', run: accept.open },
          { id: 'task.reject', label: t('Reject the task'), shortcut: 'r', run: reject.open },
        ]
      : []),
  ]);

  return (
    <Stack gap="xs">
      <Group gap="xs">
        {able.start ? (
          <Button
            leftSection={<IconPlayerPlay size={16} />}
            loading={command.isPending}
            onClick={() => void run({ kind: 'start' }, t('Task started'))}
            data-testid="task-start"
          >
            {t('Start')}
          </Button>
        ) : null}
        {able.submit ? (
          <Button
            leftSection={<IconSend size={16} />}
            loading={command.isPending}
            onClick={() => void run({ kind: 'submit' }, t('Task submitted'))}
            data-testid="task-submit"
          >
            {t('Submit')}
          </Button>
        ) : null}
        {able.submit ? (
          <SubmitWithFiles task={task} onSubmit={() => run({ kind: 'submit' }, t('Task submitted'))} />
        ) : null}
        {able.review ? (
          <>
            <Button color="green" leftSection={<IconCheck size={16} />} onClick={accept.open} data-testid="task-accept">
              {t('Accept')}
            </Button>
            <Button
              color="red"
              variant="light"
              leftSection={<IconX size={16} />}
              onClick={reject.open}
              data-testid="task-reject"
            >
              {t('Reject')}
            </Button>
          </>
        ) : null}
        {statuses.length > 0 ? (
          <Select
            aria-label={t('Set status')}
            placeholder={t('Set status')}
            data={statuses}
            value={task.status}
            allowDeselect={false}
            w={200}
            disabled={command.isPending}
            onChange={(value) => {
              if (value && value !== task.status)
                void run({ kind: 'patch', body: { status: value } }, t('Status changed'));
            }}
            data-testid="task-status-select"
          />
        ) : null}
      </Group>
      <CurrentRoundFiles task={task} />
      {able.self_review ? (
        <Text size="sm" c="dimmed" data-testid="task-self-review">
          {t(ReviewRuleMessages.selfReview)}
        </Text>
      ) : null}
      {able.reacted ? (
        <Text size="sm" c="dimmed" data-testid="task-reacted">
          {t('You have already reacted in this review round.')}
        </Text>
      ) : null}
      <AcceptDialog
        opened={accepting}
        onClose={accept.close}
        busy={command.isPending}
        hint={acceptHint}
        onConfirm={async (comment) => {
          const done = await run({ kind: 'accept', body: comment ? { comment } : {} }, t('Task accepted'));
          if (done) accept.close();
          return done;
        }}
      />
      <RejectDialog
        task={task}
        opened={rejecting}
        onClose={reject.close}
        busy={command.isPending}
        onConfirm={async (body) => {
          const done = await run({ kind: 'reject', body }, t('Task rejected'));
          if (done) reject.close();
          return done;
        }}
      />
    </Stack>
  );
}
