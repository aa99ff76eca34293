import { Anchor, Button, Table, Text, TextInput } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '@stageline/shared';
import { ZLogHours, type TTimeLog } from '@stageline/shared/time';
import { formError } from '../../../shared/lib/form-errors';
import { showToast } from '../../../shared/ui/toast';
import { queryClient } from '../../../shared/api/query-client';
import { deleteLog, logsQueryOptions, logTime, updateLog, useAssignedTasks, useLogs } from '../api';
import { addDays, formatHours, parseHours } from '../lib/week';
import classes from './week-grid.module.css';

type TRow = { task: number; unit: string; stage: string; project: string };

/**
 * Says a failed time call once (docs/architecture.md, "Errors: who tells the person"): the server's
 * reason, or `fallback`; nothing when the transport has said it already (the server down or busy).
 */
export function reportTimeError(error: unknown, fallback: string): string {
  const text = formError(error, { fallback });
  if (text) showToast({ kind: 'error', message: text });
  return text ?? fallback;
}

/**
 * One day of one task: type hours (`1.5`), Enter or leaving the cell saves; empty or 0 deletes the
 * day's log. The input keeps what was typed until the save answers; a refusal says why and marks it.
 */
function HoursCell({
  task,
  date,
  log,
  label,
}: {
  task: number;
  date: string;
  log: TTimeLog | undefined;
  label: string;
}) {
  const { t } = useTranslation();
  const saved = log ? formatHours(log.hours) : '';
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const value = draft ?? saved;

  const save = async () => {
    if (draft === null || draft.trim() === saved || busy) {
      setDraft(null);
      return;
    }
    const hours = parseHours(draft);
    const checked = hours === null ? null : hours === 0 ? { success: true as const } : ZLogHours.safeParse(hours);
    if (hours === null || !checked?.success) {
      const message = checked && !checked.success ? checked.error.issues[0]?.message : undefined;
      setError(t(message ?? 'Enter a number of hours, such as 1.5.'));
      return;
    }
    setBusy(true);
    try {
      if (hours === 0) {
        if (log) await deleteLog(log);
      } else if (log) await updateLog(log, { hours });
      else await logTime(task, { date, hours });
      setDraft(null);
      setError(null);
    } catch (caught) {
      setError(reportTimeError(caught, t('Data was not saved')));
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void save();
    } else if (event.key === 'Escape') {
      setDraft(null);
      setError(null);
    }
  };

  return (
    <TextInput
      size="xs"
      className={classes.cell}
      value={value}
      inputMode="decimal"
      aria-label={label}
      aria-invalid={error !== null}
      error={error !== null}
      title={error ?? undefined}
      readOnly={busy}
      data-testid="time-cell"
      data-task={task}
      data-date={date}
      onChange={(event) => {
        setDraft(event.currentTarget.value);
        setError(null);
      }}
      onKeyDown={onKeyDown}
      onBlur={() => void save()}
    />
  );
}

/**
 * The caller's week (docs/time.md): rows are their tasks in the workspace (assigned to them, logged
 * this week, or copied from last week), columns the seven days, with totals per task, per day and
 * for the week.
 */
export function WeekGrid({
  workspaceId,
  days,
  dayLabel,
}: {
  workspaceId: number;
  days: string[];
  dayLabel: (day: string) => string;
}) {
  const { t } = useTranslation();
  const from = days[0]!;
  const to = days[6]!;
  const logs = useLogs({ workspace: workspaceId, person: 'me', from, to });
  const assigned = useAssignedTasks(workspaceId);
  const [copied, setCopied] = useState<Record<string, TRow[]>>({});
  const [copying, setCopying] = useState(false);

  const rows = new Map<number, TRow>();
  for (const log of logs.data ?? [])
    rows.set(log.task.id, { task: log.task.id, unit: log.task.unit, stage: log.task.stage, project: log.project.name });
  for (const task of assigned.data ?? [])
    if (!rows.has(task.id))
      rows.set(task.id, { task: task.id, unit: task.unit.name, stage: task.stage.name, project: task.project.name });
  for (const row of copied[from] ?? []) if (!rows.has(row.task)) rows.set(row.task, row);
  const ordered = [...rows.values()].sort(
    (a, b) => a.project.localeCompare(b.project) || a.unit.localeCompare(b.unit) || a.stage.localeCompare(b.stage),
  );
  const byCell = new Map((logs.data ?? []).map((log) => [`${log.task.id}/${log.date}`, log]));
  const dayTotal = (day: string) => (logs.data ?? []).filter((l) => l.date === day).reduce((s, l) => s + l.hours, 0);
  const rowTotal = (task: number) =>
    (logs.data ?? []).filter((l) => l.task.id === task).reduce((s, l) => s + l.hours, 0);
  const weekTotal = (logs.data ?? []).reduce((s, l) => s + l.hours, 0);

  const copyLastWeek = async () => {
    setCopying(true);
    try {
      const last = await queryClient.fetchQuery(
        logsQueryOptions({ workspace: workspaceId, person: 'me', from: addDays(from, -7), to: addDays(to, -7) }),
      );
      const added = last.map((log) => ({
        task: log.task.id,
        unit: log.task.unit,
        stage: log.task.stage,
        project: log.project.name,
      }));
      setCopied((old) => ({ ...old, [from]: [...(old[from] ?? []), ...added] }));
      if (added.length === 0) showToast({ kind: 'info', message: t('Nothing was logged last week.') });
    } catch (caught) {
      reportTimeError(caught, t('Unknown error'));
    } finally {
      setCopying(false);
    }
  };

  return (
    <>
      <div className={classes.frame} data-testid="timesheet-grid">
        <Table className={classes.table} withTableBorder withColumnBorders striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th className={classes.taskColumn}>{t('Task')}</Table.Th>
              {days.map((day) => (
                <Table.Th key={day} className={classes.dayColumn}>
                  {dayLabel(day)}
                </Table.Th>
              ))}
              <Table.Th className={classes.dayColumn}>{t('Total')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ordered.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={9}>
                  <Text size="sm" c="dimmed">
                    {logs.isPending || assigned.isPending ? t('Loading…') : t('No tasks this week.')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {ordered.map((row) => (
              <Table.Tr key={row.task} data-testid="timesheet-row" data-task={row.task}>
                <Table.Td className={classes.taskColumn}>
                  <Anchor component={Link} to={paths.app.task(row.task)} size="sm">
                    {row.unit} · {row.stage}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {row.project}
                  </Text>
                </Table.Td>
                {days.map((day) => (
                  <Table.Td key={day}>
                    <HoursCell
                      task={row.task}
                      date={day}
                      log={byCell.get(`${row.task}/${day}`)}
                      label={t('{{task}} on {{day}}', { task: `${row.unit} · ${row.stage}`, day: dayLabel(day) })}
                    />
                  </Table.Td>
                ))}
                <Table.Td data-testid="timesheet-row-total">{formatHours(rowTotal(row.task))}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th className={classes.taskColumn}>{t('Total')}</Table.Th>
              {days.map((day) => (
                <Table.Th key={day} data-testid="timesheet-day-total" data-date={day}>
                  {formatHours(dayTotal(day))}
                </Table.Th>
              ))}
              <Table.Th data-testid="timesheet-week-total">{formatHours(weekTotal)}</Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </div>
      <Button
        variant="default"
        size="xs"
        leftSection={<IconCopy size={14} />}
        loading={copying}
        onClick={() => void copyLastWeek()}
        data-testid="timesheet-copy-last-week"
        w="fit-content"
      >
        {t("Copy last week's rows")}
      </Button>
    </>
  );
}
