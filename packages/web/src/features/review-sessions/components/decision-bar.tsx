import { Button, Checkbox, Group, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TReviewItem, TReviewSession } from '@stageline/shared/review-sessions';
import { showToast } from '../../../shared/ui/toast';
import { RejectDialog } from '../../tasks';
import { decideItem, useItemTask } from '../api';

/**
 * Accept or reject the current item without leaving the session: the task's own review (its
 * abilities say whether the caller may), then the item stays or leaves as the reviewer chose.
 */
export function DecisionBar({
  session,
  item,
  onDecided,
}: {
  session: TReviewSession;
  item: TReviewItem;
  onDecided: (next: TReviewSession, left: boolean) => void;
}) {
  const { t } = useTranslation();
  const task = useItemTask(item.task.id);
  const [leave, setLeave] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  const [busy, setBusy] = useState(false);
  const able = task.data?.abilities;

  const decide = async (body: { verdict: 'accept' | 'reject'; comment?: string; return_to?: number[] }) => {
    setBusy(true);
    try {
      const next = await decideItem(session.id, item.id, item.task.id, { ...body, keep: !leave });
      showToast({ kind: 'success', message: body.verdict === 'accept' ? t('Task accepted') : t('Task rejected') });
      onDecided(next, leave);
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Group justify="space-between" gap="xs" data-testid="review-decision">
      <Group gap="xs">
        <Button
          color="teal"
          leftSection={<IconCheck size={16} />}
          disabled={!able?.review || able.reacted}
          loading={busy && !rejecting}
          onClick={() => void decide({ verdict: 'accept' })}
          data-testid="review-accept"
        >
          {t('Accept')}
        </Button>
        <Button
          color="red"
          variant="light"
          leftSection={<IconX size={16} />}
          disabled={!able?.review || able.reacted}
          onClick={() => setRejecting(true)}
          data-testid="review-reject"
        >
          {t('Reject')}
        </Button>
        <Checkbox
          label={t('Take it out of the session after deciding')}
          checked={leave}
          onChange={(e) => setLeave(e.currentTarget.checked)}
          data-testid="review-leave"
        />
      </Group>
      {able && !able.review ? (
        <Text size="sm" c="dimmed" data-testid="review-not-reviewer">
          {able.self_review ? t('You cannot review your own work.') : t('You are not a reviewer of this task.')}
        </Text>
      ) : able?.reacted ? (
        <Text size="sm" c="dimmed">
          {t('You have already reacted in this review round.')}
        </Text>
      ) : null}
      {task.data ? (
        <RejectDialog
          task={task.data}
          opened={rejecting}
          onClose={() => setRejecting(false)}
          busy={busy}
          onConfirm={async (body) => {
            const done = await decide({ verdict: 'reject', ...body });
            if (done) setRejecting(false);
            return done;
          }}
        />
      ) : null}
    </Group>
  );
}
