import { Alert, Anchor, Button, Center, Group, Loader, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowLeft, IconExternalLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { flowOrder, paths, type TTaskStatus } from '@stageline/shared';
import { TaskStatusBadge } from '../../../shared/ui/task-status-badge';
import type { TPipelineFocusProps } from '../../pipelines/read-only';
import { unitQueryOptions } from '../../units';
import { taskQueryOptions } from '../api';
import { TaskDetails } from './task-details';
import { LoadError } from '../../../shared/ui/load-error';

/**
 * The pipeline screen's unit and task view (`?unit=` / `?task=`): the unit's tasks painted on their
 * stages, and in the side panel either the unit's tasks in flow order or one task with the same
 * details and actions as its own page.
 */
export function PipelineFocus({ pipeline, unitId, taskId, onOpen, onShow }: TPipelineFocusProps) {
  const { t } = useTranslation();
  const task = useQuery({ ...taskQueryOptions(taskId ?? 0), enabled: taskId !== null });
  const shownUnitId = task.data?.unit.id ?? unitId;
  const unit = useQuery({ ...unitQueryOptions(shownUnitId ?? 0), enabled: shownUnitId !== null });
  const stageName = useMemo(
    () => new Map(pipeline.nodes.filter((n) => n.kind === 'stage').map((n) => [n.id, n.name])),
    [pipeline.nodes],
  );
  const order = useMemo(() => flowOrder(pipeline.nodes, pipeline.edges), [pipeline.nodes, pipeline.edges]);
  const onThisPipeline = unit.data?.pipeline === pipeline.id;

  const title = task.data ? `${task.data.unit.name} · ${task.data.stage.name}` : unit.data ? unit.data.name : null;
  const statuses = unit.data;
  useEffect(() => {
    if (!statuses || title === null || statuses.pipeline !== pipeline.id) {
      onShow(null);
      return;
    }
    onShow({ title, statuses: new Map<number, TTaskStatus>(statuses.tasks.map((cell) => [cell.stage, cell.status])) });
  }, [statuses, title, pipeline.id, onShow]);
  useEffect(() => () => onShow(null), [onShow]);

  if (task.isError || unit.isError)
    return <LoadError retry={[task, unit].filter((query) => query.isError)} testId="pipeline-focus-error" />;
  if ((taskId !== null && !task.data) || !unit.data)
    return (
      <Center mih={120}>
        <Loader size="sm" aria-label={t('Loading...')} />
      </Center>
    );
  if (!onThisPipeline)
    return (
      <Alert color="yellow" data-testid="pipeline-focus-elsewhere">
        {t('This unit runs through another pipeline.')}
      </Alert>
    );

  if (task.data) {
    return (
      <Stack gap="md" data-testid="pipeline-focus-task">
        <Group justify="space-between">
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconArrowLeft size={14} />}
            onClick={() => onOpen({ task: null, unit: unit.data.id })}
            data-testid="pipeline-focus-back"
          >
            {unit.data.name}
          </Button>
          <Anchor component={Link} to={paths.app.task(task.data.id)} size="sm" data-testid="pipeline-focus-task-page">
            <Group gap={4} component="span">
              {t('Open the task page')}
              <IconExternalLink size={14} />
            </Group>
          </Anchor>
        </Group>
        <TaskDetails task={task.data} />
      </Stack>
    );
  }

  const byStage = new Map(unit.data.tasks.map((cell) => [cell.stage, cell]));
  return (
    <Stack gap="md" data-testid="pipeline-focus-unit">
      {unit.data.description ? (
        <Text size="sm" c="dimmed" lineClamp={3}>
          {unit.data.description}
        </Text>
      ) : null}
      <Table verticalSpacing={6}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Stage')}</Table.Th>
            <Table.Th>{t('Status')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {order.map((stageId) => {
            const cell = byStage.get(stageId);
            if (!cell) return null;
            return (
              <Table.Tr key={stageId} data-testid="pipeline-focus-stage">
                <Table.Td>
                  <UnstyledButton
                    onClick={() => onOpen({ task: cell.id })}
                    c="var(--mantine-color-anchor)"
                    fz="sm"
                    data-testid="pipeline-focus-open-task"
                  >
                    {stageName.get(stageId) ?? t('Stage {{id}}', { id: stageId })}
                  </UnstyledButton>
                </Table.Td>
                <Table.Td>
                  <TaskStatusBadge status={cell.status} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Anchor
        component={Link}
        to={paths.app.unit(unit.data.project, unit.data.id)}
        size="sm"
        data-testid="pipeline-focus-unit-page"
      >
        {t('Open the unit page')}
      </Anchor>
    </Stack>
  );
}
