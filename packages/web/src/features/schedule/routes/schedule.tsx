import { Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dayOf, isoDay, type TProject } from '@stageline/shared';
import { RecordView } from '../../../shared/records';
import { LoadError } from '../../../shared/ui/load-error';
import { PageCard } from '../../../shared/ui/page-card';
import { useOpenProject, useProjectRecord } from '../../projects';
import { useForecast } from '../api';
import { Timeline } from '../components/timeline';

/**
 * `/app/projects/{id}/schedule` (docs/schedule.md, "Timeline"): the project's units on a day axis
 * with the forecast along the diagram: late units and what they wait on, milestones and their risk.
 */
export default function ScheduleScreen() {
  const { t } = useTranslation();
  const record = useProjectRecord();
  useOpenProject(record.data);
  return (
    <RecordView record={record} title={t('Schedule')}>
      {(project) => <Schedule project={project} />}
    </RecordView>
  );
}

function Schedule({ project }: { project: TProject }) {
  const { t, i18n } = useTranslation();
  const forecast = useForecast(project.id);
  const data = forecast.data;
  const format = new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'long', timeZone: 'UTC' });
  const dateOf = (day: string) => format.format(new Date(`${isoDay(dayOf(day))}T00:00:00Z`));
  const late = data?.units.filter((unit) => unit.late_by > 0).length ?? 0;
  const finish = data?.units.reduce<string | null>(
    (max, u) => (u.finish && (!max || u.finish > max) ? u.finish : max),
    null,
  );
  return (
    <PageCard documentTitle={[t('Schedule'), project.name]} title={t('Schedule')} wide>
      <Stack gap="sm">
        {data ? (
          <Group gap="lg" data-testid="schedule-summary">
            <Text size="sm">
              {finish ? t('Forecast finish: {{date}}', { date: dateOf(finish) }) : t('Every task is done.')}
            </Text>
            <Text size="sm" c={late > 0 ? 'red' : 'dimmed'} data-testid="schedule-late-count">
              {t('{{count}} unit late', { count: late })}
            </Text>
            {data.milestones.map((milestone) => (
              <Text
                key={milestone.id}
                size="sm"
                c={milestone.at_risk ? 'red' : 'dimmed'}
                data-testid={`schedule-risk-${milestone.id}`}
                data-risk={milestone.at_risk}
              >
                {milestone.at_risk
                  ? t('{{name}} ({{date}}) is at risk', { name: milestone.name, date: dateOf(milestone.date) })
                  : t('{{name}} ({{date}}) is on track', { name: milestone.name, date: dateOf(milestone.date) })}
              </Text>
            ))}
          </Group>
        ) : null}
        {data?.abilities.plan ? (
          <Text size="xs" c="dimmed">
            {t('Drag a bar to move it, its end to change its length; or select it and use the arrows (Shift: length).')}
          </Text>
        ) : null}
        {forecast.isPending ? (
          <Center mih={300} data-testid="schedule-loading">
            <Loader />
          </Center>
        ) : forecast.isError || !data ? (
          <LoadError retry={forecast} testId="schedule-error" />
        ) : data.units.length === 0 ? (
          <Text c="dimmed" data-testid="schedule-empty">
            {t('No units in this project yet.')}
          </Text>
        ) : (
          <Timeline projectId={project.id} forecast={data} canPlan={data.abilities.plan} />
        )}
      </Stack>
    </PageCard>
  );
}
