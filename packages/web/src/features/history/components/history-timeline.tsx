import { Button, Group, Loader, SegmentedControl, Stack, Text, Timeline } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CustomFieldHistoryPrefix,
  TaskStatusLabels,
  TaskStatuses,
  type THistoryFilter,
  type TRecordChange,
  type TTaskStatus,
} from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { LoadError } from '../../../shared/ui/load-error';
import { useHistoryPages, type THistoryOf } from '../api';

/** What each field is called on screen (keys of history.json). */
const fieldLabels: Record<string, string> = {
  status: 'Status',
  assignees: 'Assignees',
  reviewers: 'Reviewers',
  due_date: 'Due date',
  estimate: 'Estimate',
  name: 'Name',
  description: 'Description',
  file_added: 'File added',
  file_removed: 'File removed',
  time_logged: 'Time',
  comment_edited: 'Comment edited',
  comment_deleted: 'Comment deleted',
};

const isStatus = (value: unknown): value is TTaskStatus =>
  typeof value === 'string' && (TaskStatuses as readonly string[]).includes(value);

type TFormat = {
  t: (key: string, params?: Record<string, unknown>) => string;
  person: (id: number) => string;
  formatCalendar: (value: string) => string;
};

/** One side of a change as text: a status, people, a date, hours, a file or a comment. */
function valueText(field: string, value: unknown, { t, person, formatCalendar }: TFormat): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'status' && isStatus(value)) return t(TaskStatusLabels[value]);
  if (Array.isArray(value)) return value.length ? value.map((id) => person(Number(id))).join(', ') : '—';
  if (field === 'due_date' && typeof value === 'string') return formatCalendar(value);
  if (field === 'estimate' && typeof value === 'number') return t('{{hours}} h', { hours: value });
  if (typeof value === 'object') {
    const record = value as { name?: string; text?: string; hours?: number; date?: string };
    if (record.name !== undefined) return record.name;
    if (record.text !== undefined) return record.text.length > 80 ? `${record.text.slice(0, 80)}…` : record.text;
    if (record.hours !== undefined) return t('{{hours}} h on {{date}}', { hours: record.hours, date: record.date });
    return JSON.stringify(value);
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The timeline of a unit's or a task's changes (docs/history-and-audit.md): who, when, which field,
 * old → new, newest first; "All", "Status" or "Fields"; more on demand. It refetches when a
 * `history` live event names its record, so another person's change appears without a reload.
 */
export function HistoryTimeline({
  of,
  people,
  taskLabel,
}: {
  of: THistoryOf;
  /** Names of the workspace's members, by id. */
  people: Map<number, string>;
  /** The stage of a task's change, on a unit's timeline. */
  taskLabel?: (taskId: number) => string | undefined;
}) {
  const { t } = useTranslation();
  const { formatCalendar, formatDate, formatTime } = useDates();
  const [only, setOnly] = useState<THistoryFilter>('all');
  const pages = useHistoryPages(of, only);
  const entries = pages.data?.pages.flatMap((page) => page.results) ?? [];
  const format: TFormat = {
    t,
    person: (id) => people.get(id) ?? t('User {{id}}', { id }),
    formatCalendar,
  };
  const label = (entry: TRecordChange) =>
    entry.field.startsWith(CustomFieldHistoryPrefix)
      ? entry.field.slice(CustomFieldHistoryPrefix.length)
      : t(fieldLabels[entry.field] ?? entry.field);

  return (
    <Stack gap="sm" data-testid="history-timeline">
      <Group justify="space-between" wrap="wrap">
        <Text fw={600}>{t('History')}</Text>
        <SegmentedControl<THistoryFilter>
          size="xs"
          value={only}
          onChange={setOnly}
          data={[
            { value: 'all', label: t('All') },
            { value: 'status', label: t('Only status') },
            { value: 'fields', label: t('Only fields') },
          ]}
          data-testid="history-filter"
        />
      </Group>
      {pages.isError ? (
        <LoadError retry={pages} />
      ) : pages.isPending ? (
        <Loader size="sm" />
      ) : entries.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="history-empty">
          {t('No changes yet.')}
        </Text>
      ) : (
        <Timeline bulletSize={12} lineWidth={2}>
          {entries.map((entry) => {
            const stage = entry.task !== null ? taskLabel?.(entry.task) : undefined;
            return (
              <Timeline.Item key={entry.id} data-testid="history-entry" data-field={entry.field}>
                <Text size="sm">
                  <Text span fw={500}>
                    {stage ? `${stage} · ` : ''}
                    {label(entry)}
                  </Text>
                  {': '}
                  <Text span c="dimmed" td={entry.old === null ? undefined : 'line-through'}>
                    {valueText(entry.field, entry.old, format)}
                  </Text>
                  {' → '}
                  <Text span data-testid="history-new">
                    {valueText(entry.field, entry.new, format)}
                  </Text>
                </Text>
                <Text size="xs" c="dimmed">
                  {entry.actor?.name ?? t('Someone')} · {formatDate(entry.created_at)} {formatTime(entry.created_at)}
                </Text>
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
      {pages.hasNextPage ? (
        <Group justify="center">
          <Button
            variant="default"
            size="xs"
            loading={pages.isFetchingNextPage}
            onClick={() => void pages.fetchNextPage()}
            data-testid="history-more"
          >
            {t('Show more')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
