import { Anchor, Stack, Table, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths, type TCountedPipelineSummary } from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { StatusBar } from '../../../shared/ui/status-bar';
import { markdownToPlainText } from '@stageline/shared/markdown';
import { TaskCounters } from './task-counters';

/** A project's pipelines; a click on a row opens the pipeline. */
export function PipelineListTable({
  projectId,
  pipelines,
}: {
  projectId: number;
  pipelines: TCountedPipelineSummary[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { formatCalendar } = useDates();
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table highlightOnHover verticalSpacing="sm" data-testid="pipeline-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Name')}</Table.Th>
            <Table.Th>{t('Stages')}</Table.Th>
            <Table.Th>{t('Tasks')}</Table.Th>
            <Table.Th>{t('Updated')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {pipelines.map((pipeline) => (
            <Table.Tr
              key={pipeline.id}
              data-testid="pipeline-row"
              data-id={pipeline.id}
              style={{ cursor: 'pointer' }}
              onClick={() => void navigate(paths.app.pipeline(projectId, pipeline.id))}
            >
              <Table.Td maw={320}>
                <Anchor
                  component={Link}
                  to={paths.app.pipeline(projectId, pipeline.id)}
                  fw={500}
                  data-nav-item
                  onClick={(event) => event.stopPropagation()}
                >
                  {pipeline.name}
                </Anchor>
                {pipeline.description ? (
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {markdownToPlainText(pipeline.description)}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td data-testid="pipeline-stages-count">{pipeline.stages_count}</Table.Td>
              <Table.Td miw={200}>
                <Stack gap={6}>
                  <StatusBar counters={pipeline.task_counters} testId="pipeline-row-bar" />
                  <TaskCounters counters={pipeline.task_counters} />
                </Stack>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {formatCalendar(pipeline.updated_at)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
