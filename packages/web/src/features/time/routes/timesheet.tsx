import { ActionIcon, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDates } from '../../../shared/i18n/use-dates';
import { PageCard } from '../../../shared/ui/page-card';
import { RequireWorkspace, workspaceQueryOptions } from '../../workspaces';
import { TeamWeek } from '../components/team-week';
import { WeekGrid } from '../components/week-grid';
import { addDays, localToday, startOfWeek, weekDays } from '../lib/week';

/** `/app/time`: the timesheet of the current workspace (docs/time.md). */
export default function TimesheetScreen() {
  return <RequireWorkspace>{(workspaceId) => <Timesheet workspaceId={workspaceId} />}</RequireWorkspace>;
}

function Timesheet({ workspaceId }: { workspaceId: number }) {
  const { t } = useTranslation();
  const { weekStart, formatDate, language } = useDates();
  const workspace = useQuery(workspaceQueryOptions(workspaceId));
  const [start, setStart] = useState(() => startOfWeek(localToday(), weekStart));
  const [view, setView] = useState<'mine' | 'team'>('mine');
  const days = weekDays(start);
  const weekday = (day: string) =>
    new Intl.DateTimeFormat(language, { weekday: 'short', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
  const dayLabel = (day: string) => `${weekday(day)} ${day.slice(8)}`;
  const team = workspace.data?.abilities.moderate_time === true;

  return (
    <PageCard
      title={t('Time')}
      actions={
        team ? (
          <SegmentedControl
            size="xs"
            value={view}
            onChange={(value) => setView(value === 'team' ? 'team' : 'mine')}
            data={[
              { value: 'mine', label: t('My week') },
              { value: 'team', label: t('Team') },
            ]}
            data-testid="timesheet-view"
          />
        ) : null
      }
    >
      <Stack gap="md">
        <Group gap="xs" wrap="nowrap">
          <ActionIcon
            variant="default"
            aria-label={t('Previous week')}
            onClick={() => setStart(addDays(start, -7))}
            data-testid="timesheet-previous"
          >
            <IconChevronLeft size={16} />
          </ActionIcon>
          <Text fw={500} data-testid="timesheet-week" data-start={start}>
            {formatDate(`${start}T12:00:00Z`)} – {formatDate(`${days[6]}T12:00:00Z`)}
          </Text>
          <ActionIcon
            variant="default"
            aria-label={t('Next week')}
            onClick={() => setStart(addDays(start, 7))}
            data-testid="timesheet-next"
          >
            <IconChevronRight size={16} />
          </ActionIcon>
        </Group>
        {view === 'team' && team ? (
          <TeamWeek workspaceId={workspaceId} days={days} dayLabel={dayLabel} />
        ) : (
          <WeekGrid workspaceId={workspaceId} days={days} dayLabel={dayLabel} />
        )}
      </Stack>
    </PageCard>
  );
}
