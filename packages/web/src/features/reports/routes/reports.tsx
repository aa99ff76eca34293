import { Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ZReportDay, type TProject, type TReportQuery } from '@stageline/shared';
import { RecordView } from '../../../shared/records';
import { LoadError } from '../../../shared/ui/load-error';
import { PageCard } from '../../../shared/ui/page-card';
import { useOpenProject, useProjectRecord } from '../../projects';
import { useMembers } from '../../workspaces';
import { useReport } from '../api';
import { EstimatePanels } from '../components/estimate-panels';
import { BarChart, chartHeight, colorOf, LineChart, type StageLabel } from '../components/lazy-charts';
import { ReportPanel } from '../components/report-panel';

/**
 * `/app/projects/{id}/reports` (docs/reports.md): a project's reports, each a chart with a table
 * and a CSV of the same numbers, under filters kept in the URL. The charts (`@mantine/charts` on
 * Recharts) load with this screen only (decision 187); live task events refresh it (decision 188).
 */
export default function ReportsScreen() {
  const { t } = useTranslation();
  const record = useProjectRecord();
  useOpenProject(record.data);
  return (
    <RecordView record={record} title={t('Reports')}>
      {(project) => <Reports project={project} />}
    </RecordView>
  );
}

/** The URL's filters as the API takes them; anything malformed is left out. */
function readFilters(params: URLSearchParams): TReportQuery {
  const filters: TReportQuery = {};
  for (const key of ['pipeline', 'stage', 'person'] as const) {
    const value = Number(params.get(key));
    if (Number.isInteger(value) && value > 0) filters[key] = value;
  }
  for (const key of ['from', 'to'] as const) {
    const value = ZReportDay.safeParse(params.get(key));
    if (value.success) filters[key] = value.data;
  }
  return filters;
}

function Reports({ project }: { project: TProject }) {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => readFilters(params), [params]);
  const members = useMembers(project.workspace);
  // The project's stages, for the filters: the blocking report without filters lists them all.
  const all = useReport(project.id, 'blocking', {});
  const burnup = useReport(project.id, 'burnup', filters);
  const firstPass = useReport(project.id, 'first_pass', filters);
  const rounds = useReport(project.id, 'rounds', filters);
  const blocking = useReport(project.id, 'blocking', filters);
  const estimates = useReport(project.id, 'estimates', filters);

  const set = (key: keyof TReportQuery, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        if (key === 'pipeline') next.delete('stage');
        return next;
      },
      { replace: true },
    );

  const stageList = all.data?.stages ?? [];
  const pipelines = [...new Map(stageList.map((s) => [s.pipeline.id, s.pipeline])).values()];
  const manyPipelines = pipelines.length > 1;
  const label: StageLabel = (s) => (manyPipelines ? `${s.pipeline.name} / ${s.stage.name}` : s.stage.name);

  const language = i18n.language;
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
  const decimal = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  const ratePct = (rate: number | null) => (rate === null ? null : Math.round(rate * 100));
  const rateText = (rate: number | null) => (rate === null ? '—' : percent.format(rate));
  const one = (value: number | null) => (value === null ? null : Number(value.toFixed(1)));

  const failed = [burnup, firstPass, rounds, blocking, estimates].filter((query) => query.isError);

  return (
    <PageCard documentTitle={[t('Reports'), project.name]} title={t('Reports')}>
      <Stack gap="lg" data-testid="reports">
        <Group gap="sm" align="flex-end" wrap="wrap" role="search" aria-label={t('Filters')}>
          <Select
            label={t('Pipeline')}
            placeholder={t('All')}
            clearable
            data={pipelines.map((p) => ({ value: String(p.id), label: p.name }))}
            value={filters.pipeline ? String(filters.pipeline) : null}
            onChange={(value) => set('pipeline', value)}
            data-testid="reports-pipeline"
            w={180}
          />
          <Select
            label={t('Stage')}
            placeholder={t('All')}
            clearable
            searchable
            data={stageList
              .filter((s) => !filters.pipeline || s.pipeline.id === filters.pipeline)
              .map((s) => ({ value: String(s.stage.id), label: label(s) }))}
            value={filters.stage ? String(filters.stage) : null}
            onChange={(value) => set('stage', value)}
            data-testid="reports-stage"
            w={200}
          />
          <Select
            label={t('Person')}
            placeholder={t('Everyone')}
            clearable
            searchable
            data={(members.data ?? []).map((m) => ({ value: String(m.id), label: m.name }))}
            value={filters.person ? String(filters.person) : null}
            onChange={(value) => set('person', value)}
            data-testid="reports-person"
            w={200}
          />
          <TextInput
            type="date"
            label={t('From')}
            value={filters.from ?? burnup.data?.from ?? ''}
            onChange={(event) => set('from', event.currentTarget.value || null)}
            data-testid="reports-from"
            w={160}
          />
          <TextInput
            type="date"
            label={t('To')}
            value={filters.to ?? burnup.data?.to ?? ''}
            onChange={(event) => set('to', event.currentTarget.value || null)}
            data-testid="reports-to"
            w={160}
          />
        </Group>
        <Text size="sm" c="dimmed">
          {t('Days are in UTC. Overdue and blocked are counted now, whatever the dates.')}
        </Text>
        {failed.length > 0 ? <LoadError retry={failed} /> : null}

        {firstPass.data ? (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <ReportPanel
              title={t('First-pass approval rate by stage')}
              description={t('Review rounds 1 closed in the range, and the share its reviewers accepted.')}
              testId="report-first-pass"
              filename="first-pass-by-stage.csv"
              summary={
                <Group gap="xs" align="baseline">
                  <Text size="xl" fw={700} data-testid="first-pass-rate">
                    {rateText(firstPass.data.total.rate)}
                  </Text>
                  <Text size="sm" c="dimmed" data-testid="first-pass-counts">
                    {t('{{accepted}} of {{rounds}} accepted in round 1', firstPass.data.total)}
                  </Text>
                </Group>
              }
              chart={
                <BarChart
                  h={chartHeight}
                  data={firstPass.data.stages.map((s) => ({ name: label(s), rate: ratePct(s.rate) ?? 0 }))}
                  dataKey="name"
                  series={[{ name: 'rate', label: t('Accepted in round 1, %'), color: 'teal.6' }]}
                  yAxisProps={{ domain: [0, 100] }}
                  unit="%"
                />
              }
              table={{
                columns: [t('Stage'), t('Rounds 1'), t('Accepted'), t('Rate')],
                rows: firstPass.data.stages.map((s) => [label(s), s.rounds, s.accepted, rateText(s.rate)]),
              }}
            />
            <ReportPanel
              title={t('First-pass approval rate by person')}
              description={t('Grouped by who submitted round 1 for review.')}
              testId="report-first-pass-people"
              filename="first-pass-by-person.csv"
              chart={
                <BarChart
                  h={chartHeight}
                  data={firstPass.data.people.map((p) => ({ name: p.person.name, rate: ratePct(p.rate) ?? 0 }))}
                  dataKey="name"
                  series={[{ name: 'rate', label: t('Accepted in round 1, %'), color: 'blue.6' }]}
                  yAxisProps={{ domain: [0, 100] }}
                  unit="%"
                />
              }
              table={{
                columns: [t('Person'), t('Rounds 1'), t('Accepted'), t('Rate')],
                rows: firstPass.data.people.map((p) => [p.person.name, p.rounds, p.accepted, rateText(p.rate)]),
              }}
            />
          </SimpleGrid>
        ) : null}

        {burnup.data ? (
          <>
            <ReportPanel
              title={t('Burn-up')}
              description={t('Tasks done at the end of each day, per stage; the dashed line is all tasks in scope.')}
              testId="report-burnup"
              filename="burn-up.csv"
              chart={
                <LineChart
                  h={chartHeight}
                  data={burnup.data.days.map((day, i) => ({
                    day,
                    scope: burnup.data.stages.reduce((sum, s) => sum + (s.scope[i] ?? 0), 0),
                    ...Object.fromEntries(burnup.data.stages.map((s) => [`s${s.stage.id}`, s.done[i] ?? 0])),
                  }))}
                  dataKey="day"
                  curveType="linear"
                  withLegend
                  withDots={false}
                  series={[
                    ...burnup.data.stages.map((s, i) => ({
                      name: `s${s.stage.id}`,
                      label: label(s),
                      color: colorOf(i),
                    })),
                    { name: 'scope', label: t('In scope'), color: 'gray.6', strokeDasharray: '5 5' },
                  ]}
                />
              }
              table={{
                columns: [
                  t('Day'),
                  ...burnup.data.stages.flatMap((s) => [
                    t('{{stage}}: done', { stage: label(s) }),
                    t('{{stage}}: in scope', { stage: label(s) }),
                  ]),
                ],
                rows:
                  burnup.data.stages.length === 0
                    ? []
                    : burnup.data.days.map((day, i) => [
                        day,
                        ...burnup.data.stages.flatMap((s) => [s.done[i] ?? 0, s.scope[i] ?? 0]),
                      ]),
              }}
            />
            <ReportPanel
              title={t('Throughput per week')}
              description={t('Tasks that became done each week (weeks start on Monday).')}
              testId="report-throughput"
              filename="throughput.csv"
              chart={
                <BarChart
                  h={chartHeight}
                  type="stacked"
                  withLegend
                  data={burnup.data.weeks.map((week, i) => ({
                    week,
                    ...Object.fromEntries(burnup.data.stages.map((s) => [`s${s.stage.id}`, s.throughput[i] ?? 0])),
                  }))}
                  dataKey="week"
                  series={burnup.data.stages.map((s, i) => ({
                    name: `s${s.stage.id}`,
                    label: label(s),
                    color: colorOf(i),
                  }))}
                />
              }
              table={{
                columns: [t('Week of'), ...burnup.data.stages.map(label), t('Total')],
                rows:
                  burnup.data.stages.length === 0
                    ? []
                    : burnup.data.weeks.map((week, i) => {
                        const counts = burnup.data.stages.map((s) => s.throughput[i] ?? 0);
                        return [week, ...counts, counts.reduce((a, b) => a + b, 0)];
                      }),
              }}
            />
          </>
        ) : null}

        {rounds.data ? (
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <ReportPanel
              title={t('Review rounds per task')}
              description={t(
                'Tasks finished in the range: their review rounds, on average and at the 90th percentile.',
              )}
              testId="report-rounds"
              filename="review-rounds.csv"
              summary={
                <Text size="sm" data-testid="rounds-total">
                  {t('Mean {{mean}}, p90 {{p90}} over {{count}} tasks', {
                    mean: rounds.data.total.rounds_mean === null ? '—' : decimal.format(rounds.data.total.rounds_mean),
                    p90: rounds.data.total.rounds_p90 ?? '—',
                    count: rounds.data.total.tasks,
                  })}
                </Text>
              }
              chart={
                <BarChart
                  h={chartHeight}
                  withLegend
                  data={rounds.data.stages.map((s) => ({
                    name: label(s),
                    mean: one(s.rounds_mean) ?? 0,
                    p90: s.rounds_p90 ?? 0,
                  }))}
                  dataKey="name"
                  series={[
                    { name: 'mean', label: t('Mean'), color: 'blue.6' },
                    { name: 'p90', label: t('90th percentile'), color: 'orange.6' },
                  ]}
                />
              }
              table={{
                columns: [t('Stage'), t('Tasks'), t('Mean'), t('90th percentile')],
                rows: rounds.data.stages.map((s) => [label(s), s.tasks, one(s.rounds_mean), s.rounds_p90]),
              }}
            />
            <ReportPanel
              title={t('Time in review and in edit')}
              description={t('Hours a task spent in each status, on average, for stays begun in the range.')}
              testId="report-time"
              filename="time-in-review-and-edit.csv"
              chart={
                <BarChart
                  h={chartHeight}
                  withLegend
                  data={rounds.data.stages.map((s) => ({
                    name: label(s),
                    review: one(s.review_hours) ?? 0,
                    edit: one(s.edit_hours) ?? 0,
                  }))}
                  dataKey="name"
                  series={[
                    { name: 'review', label: t('Hours in review'), color: 'violet.6' },
                    { name: 'edit', label: t('Hours in edit'), color: 'orange.6' },
                  ]}
                />
              }
              table={{
                columns: [t('Stage'), t('Hours in review'), t('Hours in edit')],
                rows: rounds.data.stages.map((s) => [label(s), one(s.review_hours), one(s.edit_hours)]),
              }}
            />
          </SimpleGrid>
        ) : null}

        {estimates.data ? <EstimatePanels report={estimates.data} label={label} /> : null}

        {blocking.data ? (
          <ReportPanel
            title={t('Overdue and blocked now')}
            description={t('Open tasks per stage, those past their due date, and those waiting for an upstream stage.')}
            testId="report-blocking"
            filename="overdue-and-blocked.csv"
            chart={
              <BarChart
                h={chartHeight}
                withLegend
                data={blocking.data.stages.map((s) => ({ name: label(s), overdue: s.overdue, blocked: s.blocked }))}
                dataKey="name"
                series={[
                  { name: 'overdue', label: t('Overdue'), color: 'red.6' },
                  { name: 'blocked', label: t('Blocked'), color: 'gray.6' },
                ]}
              />
            }
            table={{
              columns: [t('Stage'), t('Open'), t('Overdue'), t('Blocked'), t('Blocked by')],
              rows: blocking.data.stages.map((s) => [
                label(s),
                s.open,
                s.overdue,
                s.blocked,
                s.blocked_by.map((b) => `${b.stage.name}: ${b.count}`).join(', '),
              ]),
            }}
          />
        ) : null}
      </Stack>
    </PageCard>
  );
}
