import { Badge, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ReviewModeLabels,
  TaskStatuses,
  TaskStatusLabels,
  type TPipelineNode,
  type TTaskCountersDto,
} from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { UserMarkdown } from '../../../shared/ui/user-markdown';
import { useStageMembers } from '../api';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

/** A stage's settings at a glance, for the pipeline screen's side drawer. */
export function StageSummary({
  stage,
  counters,
  projectId,
}: {
  stage: TPipelineNode;
  counters?: TTaskCountersDto;
  projectId: number;
}) {
  const { t } = useTranslation();
  const members = useStageMembers(projectId);
  const dates = useDates();
  const names = (ids: number[]) => {
    if (ids.length === 0) return t('Nobody');
    const byId = new Map((members.data ?? []).map((m) => [m.id, m.name || m.username || '']));
    return ids.map((id) => byId.get(id) || `#${id}`).join(', ');
  };
  const due =
    stage.default_due_days !== null
      ? t('{{count}} days after ready', { count: stage.default_due_days })
      : stage.default_due_date
        ? dates.formatDate(stage.default_due_date)
        : t('None');
  return (
    <Stack gap="sm" data-testid="stage-summary">
      {stage.description ? <UserMarkdown text={stage.description} /> : null}
      {counters ? (
        <Group gap={6}>
          {TaskStatuses.map((status) => (
            <Badge key={status} variant="light" color="gray">
              {t(TaskStatusLabels[status])}: {counters[status]}
            </Badge>
          ))}
          <Badge variant={counters.overdue > 0 ? 'filled' : 'light'} color={counters.overdue > 0 ? 'red' : 'gray'}>
            {t('Overdue')}: {counters.overdue}
          </Badge>
        </Group>
      ) : null}
      <Row label={t('Review mode')}>{t(ReviewModeLabels[stage.review_mode])}</Row>
      <Row label={t('Default assignees')}>{names(stage.default_assignees)}</Row>
      <Row label={t('Default reviewers')}>{names(stage.default_reviewers)}</Row>
      <Row label={t('Default due date')}>{due}</Row>
      <Row label={t('To do enabled')}>{stage.todo_enabled ? t('Yes') : t('No')}</Row>
      <Row label={t('Skip review when there are no reviewers')}>
        {stage.skip_review_if_no_reviewers ? t('Yes') : t('No')}
      </Row>
      <Row label={t('Accept edit as done')}>{stage.accept_edit_as_done ? t('Yes') : t('No')}</Row>
    </Stack>
  );
}
