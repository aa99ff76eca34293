import { Button, Group, ScrollArea, Skeleton, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { IconChartBar, IconDownload, IconTable } from '@tabler/icons-react';
import { Suspense, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../../shared/i18n';
import { saveBlob } from '../../../shared/ui/export-csv-button';
import { tableToCsv, type TReportTable } from '../lib/csv';

/**
 * One report on the screen (decision 187): a chart and a Table tab with the same numbers (a table
 * with column and row headers), and a CSV of that table. `summary` sits above both.
 */
export function ReportPanel({
  title,
  description,
  testId,
  filename,
  chart,
  table,
  summary,
}: {
  title: string;
  description: string;
  testId: string;
  filename: string;
  chart: ReactNode;
  table: TReportTable;
  summary?: ReactNode;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const download = () => {
    const delimiter = currentLanguage() === 'ru' ? ';' : ',';
    // A byte-order mark, so a spreadsheet reads the names as UTF-8.
    saveBlob(new Blob(['\uFEFF', tableToCsv(table, delimiter)], { type: 'text/csv;charset=utf-8' }), filename);
  };
  return (
    <Stack
      gap="xs"
      component="section"
      aria-labelledby={headingId}
      data-testid={testId}
      p="sm"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
    >
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2}>
          <Title order={2} size="h4" id={headingId}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {description}
          </Text>
        </Stack>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconDownload size={14} />}
          onClick={download}
          data-testid={`${testId}-csv`}
        >
          {t('Download CSV')}
        </Button>
      </Group>
      {summary}
      <Tabs defaultValue="chart" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="chart" leftSection={<IconChartBar size={14} />} data-testid={`${testId}-chart-tab`}>
            {t('Chart')}
          </Tabs.Tab>
          <Tabs.Tab value="table" leftSection={<IconTable size={14} />} data-testid={`${testId}-table-tab`}>
            {t('Table')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="chart" pt="sm">
          {table.rows.length === 0 ? (
            <Text c="dimmed">{t('No data for these filters.')}</Text>
          ) : (
            <Suspense fallback={<Skeleton h={260} data-testid={`${testId}-chart-loading`} />}>{chart}</Suspense>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="table" pt="sm">
          <ScrollArea type="auto">
            <Table striped withTableBorder data-testid={`${testId}-table`}>
              <Table.Caption>{title}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  {table.columns.map((column) => (
                    <Table.Th key={column} scope="col">
                      {column}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {table.rows.map((row, i) => (
                  <Table.Tr key={i}>
                    {row.map((value, j) =>
                      j === 0 ? (
                        <Table.Th key={j} scope="row">
                          {value}
                        </Table.Th>
                      ) : (
                        <Table.Td key={j}>{value ?? '—'}</Table.Td>
                      ),
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
