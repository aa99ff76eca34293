import { Group, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TEstimatesReport } from '@stageline/shared';
import { BarChart, chartHeight, type StageLabel } from './lazy-charts';
import { ReportPanel } from './report-panel';

type Row = TEstimatesReport['total'];

/**
 * Estimate vs spent (docs/reports.md, "Estimate vs spent"): per stage, per person who logged, and
 * the tasks furthest over their estimate, each a chart with its table and CSV.
 */
export function EstimatePanels({ report, label }: { report: TEstimatesReport; label: StageLabel }) {
  const { t, i18n } = useTranslation();
  const decimal = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  const percent = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 });
  const ratio = (row: Row) => (row.ratio === null ? null : percent.format(row.ratio));
  const columns = [t('Tasks'), t('Estimate, h'), t('Spent, h'), t('Spent of estimate'), t('Without an estimate, h')];
  const cells = (row: Row) => [row.tasks, row.estimate_hours, row.spent_hours, ratio(row), row.unestimated_hours];
  const series = [
    { name: 'estimate', label: t('Estimate, h'), color: 'gray.6' },
    { name: 'spent', label: t('Spent, h'), color: 'orange.6' },
  ];
  const bars = (row: Row, name: string) => ({ name, estimate: row.estimate_hours, spent: row.spent_hours });
  const { total } = report;

  return (
    <>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <ReportPanel
          title={t('Estimate vs spent by stage')}
          description={t(
            'Tasks with time logged in the range: their estimates, and the hours logged on them up to the last day.',
          )}
          testId="report-estimates"
          filename="estimate-vs-spent-by-stage.csv"
          summary={
            <Group gap="xs" align="baseline" wrap="wrap">
              <Text size="xl" fw={700} data-testid="estimates-ratio">
                {ratio(total) ?? '—'}
              </Text>
              <Text size="sm" c="dimmed" data-testid="estimates-total">
                {t('{{spent}} h spent of {{estimate}} h estimated; {{unestimated}} h on tasks without an estimate', {
                  spent: decimal.format(total.spent_hours),
                  estimate: decimal.format(total.estimate_hours),
                  unestimated: decimal.format(total.unestimated_hours),
                })}
              </Text>
            </Group>
          }
          chart={
            <BarChart
              h={chartHeight}
              withLegend
              data={report.stages.map((s) => bars(s, label(s)))}
              dataKey="name"
              series={series}
            />
          }
          table={{
            columns: [t('Stage'), ...columns],
            rows: report.stages.filter((s) => s.tasks > 0).map((s) => [label(s), ...cells(s)]),
          }}
        />
        <ReportPanel
          title={t('Estimate vs spent by person')}
          description={t('Each person’s hours, and their share of each estimate by the hours they logged on the task.')}
          testId="report-estimates-people"
          filename="estimate-vs-spent-by-person.csv"
          chart={
            <BarChart
              h={chartHeight}
              withLegend
              data={report.people.map((p) => bars(p, p.person.name))}
              dataKey="name"
              series={series}
            />
          }
          table={{
            columns: [t('Person'), ...columns],
            rows: report.people.map((p) => [p.person.name, ...cells(p)]),
          }}
        />
      </SimpleGrid>
      <ReportPanel
        title={t('Biggest overruns')}
        description={t('The tasks furthest over their estimate, with all the hours logged on them.')}
        testId="report-overruns"
        filename="overruns.csv"
        chart={
          <BarChart
            h={chartHeight}
            withLegend
            data={report.overruns.map((o) => ({
              name: `${o.unit.name} · ${label(o)}`,
              estimate: o.estimate_hours,
              spent: o.spent_hours,
            }))}
            dataKey="name"
            series={series}
          />
        }
        table={{
          columns: [t('Unit'), t('Stage'), t('Estimate, h'), t('Spent, h'), t('Over, h')],
          rows: report.overruns.map((o) => [o.unit.name, label(o), o.estimate_hours, o.spent_hours, o.over_hours]),
        }}
      />
    </>
  );
}
