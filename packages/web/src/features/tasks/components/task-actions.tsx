import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconCheck, IconPlayerPlay, IconSend, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  can,
  canReview,
  canWork,
  reviewDecision,
  ReviewModes,
  TaskStatuses,
  TaskStatusLabels,
  type TReviewMode,
  type TRole,
  type TTask,
  type TTaskStatus,
} from '@stageline/shared';
import { useRegisterCommands } from '../../../shared/lib/commands';
import { showToast } from '../../../shared/ui/toast';
import { useTaskCommand, type TTaskCommand } from '../api';
import { AcceptDialog, RejectDialog } from './reject-dialog';
import { showTaskUpdateError } from './task-errors';

const asMode = (mode: string): TReviewMode | null =>
  (ReviewModes as readonly string[]).includes(mode) ? (mode as TReviewMode) : null;

/** What the caller may do with the task, from the same rules the server applies (docs/rules.md §Roles). */
export function taskAbilities(task: TTask, userId: number | null) {
  const role = task.role as TRole;
  const isAssignee = userId !== null && task.assignees.some((a) => a.id === userId);
  const isReviewer = userId !== null && task.reviewers.some((r) => r.id === userId);
  const iteration = task.iteration;
  const reacted =
    userId !== null &&
    !!iteration &&
    !iteration.closed &&
    (iteration.accepted_by.includes(userId) || iteration.rejected_by.includes(userId));
  const work = canWork(role, isAssignee);
  return {
    start: work && task.status === 'todo',
    submit: work && (task.status === 'in_progress' || task.status === 'edit'),
    review: canReview(isReviewer) && task.status === 'review' && !reacted,
    reacted: task.status === 'review' && reacted,
    setStatus: can(role, 'task', 'set_status'),
    update: can(role, 'task', 'update'),
  };
}

/**
 * What the caller's reaction would do under the stage's review mode (the engine's `reviewDecision`):
 * 'done' / 'edit' when it closes the round, null when the round waits for others.
 */
function predict(task: TTask, userId: number, verdict: 'accept' | 'reject'): 'done' | 'edit' | null {
  const mode = asMode(task.stage.review_mode);
  if (!mode || !task.iteration || task.iteration.closed) return null;
  const { accepted_by, rejected_by } = task.iteration;
  return reviewDecision(
    mode,
    task.reviewers.map((r) => r.id),
    {
      number: task.iteration.number,
      acceptedBy: verdict === 'accept' ? [...accepted_by, userId] : accepted_by,
      rejectedBy: verdict === 'reject' ? [...rejected_by, userId] : rejected_by,
      returnTo: [],
      closed: false,
      outcome: null,
    },
  );
}

/** Start, Submit, Accept, Reject and the Member's status select: only those that apply to the caller. */
export function TaskActions({ task, userId }: { task: TTask; userId: number | null }) {
  const { t } = useTranslation();
  const command = useTaskCommand(task.id);
  const [rejecting, reject] = useDisclosure(false);
  const [accepting, accept] = useDisclosure(false);
  const able = taskAbilities(task, userId);

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

  const acceptOutcome = userId === null ? null : predict(task, userId, 'accept');
  const acceptHint =
    acceptOutcome === 'done'
      ? t('Your acceptance completes the review: the task becomes Done.')
      : acceptOutcome === 'edit'
        ? t('A reviewer has already rejected: the task goes to Edit.')
        : t('The task stays in review until the other reviewers react.');
  const statuses = TaskStatuses.map((status: TTaskStatus) => ({ value: status, label: t(TaskStatusLabels[status]) }));

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
        {able.setStatus ? (
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
