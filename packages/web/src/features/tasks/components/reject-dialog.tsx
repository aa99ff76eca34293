import { Alert, Button, Checkbox, Group, Modal, Stack, Switch, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ZReview, type TTask } from '@stageline/shared';
import { issueOf } from '../../../shared/lib/zod-resolver';
import type { TReject } from '../api';
import { TaskStatusBadge } from '../../../shared/ui/task-status-badge';

/**
 * What sending back really does (docs/rules.md §Tasks, decision 190): the chosen stages go to Edit; this
 * task goes back to its starting status, where nothing stops it from being started at once, and it
 * shows Ready again once those stages are done.
 */
const sendBackHint =
  'That stage goes to Edit. This task goes back to its first status: it can be started at once, and it shows Ready again when that stage is done.';
const sendBackHintMany =
  'The chosen stages go to Edit. This task goes back to its first status: it can be started at once, and it shows Ready again when they are done.';

/** The choice of what a rejection sends back: this task (`[]`) or some predecessor stages. */
type TChoice = { self: boolean; stages: number[] };

/**
 * Reject with an optional comment (docs/rules.md §Tasks). With two or more predecessor stages the person
 * must choose which go back for revision, or "this task" (an empty `return_to`); with one, sending
 * it back is an option; with none, the task goes to Edit.
 */
export function RejectDialog({
  task,
  opened,
  onClose,
  onConfirm,
  busy,
}: {
  task: TTask;
  opened: boolean;
  onClose: () => void;
  onConfirm: (body: TReject) => Promise<boolean>;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [choice, setChoice] = useState<TChoice>({ self: false, stages: [] });
  const [missing, setMissing] = useState(false);
  const predecessors = task.predecessors;
  const required = predecessors.length >= 2;
  const commentError = issueOf(ZReview.shape.comment, comment, t);

  const reset = () => {
    setComment('');
    setChoice({ self: false, stages: [] });
    setMissing(false);
  };
  const close = () => {
    reset();
    onClose();
  };
  const toggleStage = (stage: number, on: boolean) => {
    setMissing(false);
    setChoice((c) => ({
      self: false,
      stages: on ? [...c.stages.filter((s) => s !== stage), stage] : c.stages.filter((s) => s !== stage),
    }));
  };

  const confirm = async () => {
    if (required && !choice.self && choice.stages.length === 0) {
      setMissing(true);
      return;
    }
    const body: TReject = {};
    const text = comment.trim();
    if (text) body.comment = text;
    if (predecessors.length > 0) body.return_to = choice.self ? [] : choice.stages;
    if (await onConfirm(body)) reset();
  };

  return (
    <Modal opened={opened} onClose={close} title={t('Reject task')} centered data-testid="reject-dialog">
      <Stack gap="md">
        <Textarea
          label={t('Comment')}
          placeholder={t('What should be changed?')}
          autosize
          minRows={3}
          maxRows={8}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
          error={commentError}
          data-testid="reject-comment"
          data-autofocus
        />
        {required ? (
          <Stack gap="xs" data-testid="reject-return-choice">
            <Text size="sm" fw={500}>
              {t('Send for revision')}
            </Text>
            <Checkbox
              label={t('This task')}
              description={t('Only this task goes to Edit; the previous stages stay done.')}
              checked={choice.self}
              onChange={(event) => {
                setMissing(false);
                setChoice({ self: event.currentTarget.checked, stages: [] });
              }}
              data-testid="reject-return-self"
            />
            {predecessors.map((p) => (
              <Checkbox
                key={p.stage}
                label={
                  <Group gap="xs" wrap="nowrap">
                    <span>{p.stage_name}</span>
                    <TaskStatusBadge status={p.status} size="xs" />
                  </Group>
                }
                checked={choice.stages.includes(p.stage)}
                onChange={(event) => toggleStage(p.stage, event.currentTarget.checked)}
                data-testid={`reject-return-${p.stage}`}
              />
            ))}
            {choice.stages.length > 0 ? (
              <Text size="xs" c="dimmed" data-testid="reject-return-hint">
                {t(sendBackHintMany)}
              </Text>
            ) : null}
            {missing ? (
              <Alert color="red" role="alert" data-testid="reject-choice-required" p="xs">
                {t('Choose the stages to send for revision.')}
              </Alert>
            ) : null}
          </Stack>
        ) : predecessors.length === 1 ? (
          <Switch
            label={t('Send back to {{stage}}', { stage: predecessors[0]!.stage_name })}
            description={t(sendBackHint)}
            checked={choice.stages.length > 0}
            onChange={(event) => toggleStage(predecessors[0]!.stage, event.currentTarget.checked)}
            data-testid={`reject-return-${predecessors[0]!.stage}`}
          />
        ) : null}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close}>
            {t('Cancel')}
          </Button>
          <Button
            color="red"
            loading={busy}
            disabled={commentError !== null}
            onClick={() => void confirm()}
            data-testid="reject-confirm"
          >
            {t('Reject')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Accept with an optional comment. */
export function AcceptDialog({
  opened,
  onClose,
  onConfirm,
  busy,
  hint,
}: {
  opened: boolean;
  onClose: () => void;
  onConfirm: (comment: string | undefined) => Promise<boolean>;
  busy: boolean;
  hint: string;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const commentError = issueOf(ZReview.shape.comment, comment, t);
  const confirm = async () => {
    if (await onConfirm(comment.trim() || undefined)) setComment('');
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('Accept task')} centered data-testid="accept-dialog">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {hint}
        </Text>
        <Textarea
          label={t('Comment')}
          autosize
          minRows={2}
          maxRows={8}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
          error={commentError}
          data-testid="accept-comment"
          data-autofocus
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button
            color="green"
            loading={busy}
            disabled={commentError !== null}
            onClick={() => void confirm()}
            data-testid="accept-confirm"
          >
            {t('Accept')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
