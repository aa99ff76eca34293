import { Select, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportCsvButton } from '../../../shared/ui/export-csv-button';
import { useLogs } from '../api';
import { formatHours } from '../lib/week';
import classes from './week-grid.module.css';

/**
 * The team's week for Admins (docs/time.md): people × days of the workspace, or of one project
 * among those logged that week, with totals and a CSV export of the same logs.
 */
export function TeamWeek({
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
  const [project, setProject] = useState<string | null>(null);
  const all = useLogs({ workspace: workspaceId, from, to });
  const projects = new Map((all.data ?? []).map((log) => [String(log.project.id), log.project.name]));
  const logs = (all.data ?? []).filter((log) => project === null || String(log.project.id) === project);
  const people = new Map(logs.map((log) => [log.person.id, log.person.name]));
  const sum = (filter: (log: (typeof logs)[number]) => boolean) =>
    formatHours(logs.filter(filter).reduce((s, l) => s + l.hours, 0));
  const ordered = [...people.entries()].sort((a, b) => a[1].localeCompare(b[1]));

  return (
    <>
      <Select
        label={t('Project')}
        placeholder={t('All projects')}
        data={[...projects.entries()].map(([value, label]) => ({ value, label }))}
        value={project}
        onChange={setProject}
        clearable
        maw={320}
        data-testid="team-time-project"
      />
      <div className={classes.frame} data-testid="team-time-grid">
        <Table className={classes.table} withTableBorder withColumnBorders striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th className={classes.taskColumn}>{t('Person')}</Table.Th>
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
                    {all.isPending ? t('Loading…') : t('No time was logged this week.')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {ordered.map(([id, name]) => (
              <Table.Tr key={id} data-testid="team-time-row">
                <Table.Td className={classes.taskColumn}>{name}</Table.Td>
                {days.map((day) => (
                  <Table.Td key={day} className={classes.dayColumn}>
                    {sum((l) => l.person.id === id && l.date === day)}
                  </Table.Td>
                ))}
                <Table.Td className={classes.dayColumn}>{sum((l) => l.person.id === id)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th>{t('Total')}</Table.Th>
              {days.map((day) => (
                <Table.Th key={day} className={classes.dayColumn}>
                  {sum((l) => l.date === day)}
                </Table.Th>
              ))}
              <Table.Th className={classes.dayColumn}>{sum(() => true)}</Table.Th>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </div>
      <ExportCsvButton
        path="time/export.csv"
        query={{ workspace: workspaceId, from, to, ...(project ? { project } : {}) }}
        filename={`time-${from}.csv`}
        testId="team-time-export"
      />
    </>
  );
}
