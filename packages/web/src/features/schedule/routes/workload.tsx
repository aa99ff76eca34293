import { ActionIcon, Center, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { dayOf, isoDay } from '@stageline/shared';
import { LoadError } from '../../../shared/ui/load-error';
import { PageCard } from '../../../shared/ui/page-card';
import { useWorkload } from '../api';
import classes from './workload.module.css';

const Weeks = 8;

/**
 * `/app/workspaces/{id}/workload` (docs/schedule.md, "Workload"): every member × eight weeks, the
 * estimated hours of their open tasks across every project against their capacity; a week over
 * capacity is red. Previous and next move the weeks shown.
 */
export default function WorkloadScreen() {
  const { t, i18n } = useTranslation();
  const workspaceId = Number(useParams().workspaceId);
  const [from, setFrom] = useState<string | undefined>(undefined);
  const workload = useWorkload(workspaceId, from, Weeks);
  const data = workload.data;
  const format = new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const label = (day: string) => format.format(new Date(`${day}T00:00:00Z`));
  const hours = (value: number) => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(value);
  const shift = (weeks: number) => {
    const first = data?.weeks[0];
    if (first) setFrom(isoDay(dayOf(first) + weeks * 7));
  };
  return (
    <PageCard
      title={t('Workload')}
      wide
      actions={
        <Group gap="xs">
          <ActionIcon
            variant="default"
            aria-label={t('Previous weeks')}
            onClick={() => shift(-Weeks)}
            data-testid="workload-previous"
          >
            <IconChevronLeft size={16} />
          </ActionIcon>
          <ActionIcon
            variant="default"
            aria-label={t('Next weeks')}
            onClick={() => shift(Weeks)}
            data-testid="workload-next"
          >
            <IconChevronRight size={16} />
          </ActionIcon>
        </Group>
      }
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('Estimated hours of open tasks / capacity, per week. Red: over capacity.')}
        </Text>
        {workload.isPending ? (
          <Center mih={200}>
            <Loader />
          </Center>
        ) : workload.isError || !data ? (
          <LoadError retry={workload} testId="workload-error" />
        ) : (
          <div className={classes.frame}>
            <Table striped withTableBorder data-testid="workload-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Person')}</Table.Th>
                  {data.weeks.map((week) => (
                    <Table.Th key={week} className={classes.week}>
                      {label(week)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.people.map((person) => (
                  <Table.Tr key={person.id} data-testid={`workload-person-${person.id}`}>
                    <Table.Th scope="row">{person.name}</Table.Th>
                    {person.weeks.map((cell, i) => {
                      const over = cell.hours > cell.capacity;
                      return (
                        <Table.Td
                          key={data.weeks[i]}
                          className={classes.cell}
                          data-over={over || undefined}
                          data-testid={`workload-cell-${person.id}-${i}`}
                          title={t('{{count}} task', { count: cell.tasks.length })}
                        >
                          {t('{{hours}} / {{capacity}} h', {
                            hours: hours(cell.hours),
                            capacity: hours(cell.capacity),
                          })}
                          {over ? <span className={classes.over}>{` ${t('over capacity')}`}</span> : null}
                        </Table.Td>
                      );
                    })}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </div>
        )}
      </Stack>
    </PageCard>
  );
}
