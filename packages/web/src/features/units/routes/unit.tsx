import { Anchor, Button, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconEdit } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { flowOrder, paths, type TUnit } from '@stageline/shared';
import { useDates } from '../../../shared/i18n/use-dates';
import { RecordDeleteButton, RecordView, type TRecord } from '../../../shared/records';
import { PageCard } from '../../../shared/ui/page-card';
import { UserMarkdown } from '../../../shared/ui/user-markdown';
import { pipelineQuery } from '../../pipelines/read-only';
import { useOpenProject, useProject, useWorkspaceAbilities } from '../../projects';
import { FilesPanel } from '../../attachments';
import { CommentsPanel } from '../../comments';
import { UnitFields } from '../../fields';
import { HistoryTimeline } from '../../history';
import { TaskFlags, TaskStatusBadge } from '../../../shared/ui/task-status-badge';
import { useMembers } from '../../workspaces';
import type { TUnitPatch } from '../api';
import { useUnitRecord } from '../hooks/use-unit-record';

/** `…/units/{unitId}`: the unit, and its task at every stage in pipeline order. */
export default function UnitScreen() {
  const { t } = useTranslation();
  const { projectId } = useParams();
  const record = useUnitRecord(projectId);
  return (
    <RecordView record={record} title={t('Unit')}>
      {(unit) => <UnitView unit={unit} record={record} />}
    </RecordView>
  );
}

function UnitView({ unit, record }: { unit: TUnit; record: TRecord<TUnit, TUnitPatch> }) {
  const { t } = useTranslation();
  const { formatCalendar } = useDates();
  const project = useProject(unit.project);
  useOpenProject(project.data);
  const abilities = useWorkspaceAbilities(project.data?.workspace);
  const members = useMembers(project.data?.workspace);
  const pipeline = useQuery(pipelineQuery(unit.pipeline));

  const names = new Map((members.data ?? []).map((m) => [m.id, m.name]));
  const stages = pipeline.data
    ? flowOrder(pipeline.data.nodes, pipeline.data.edges).map((id) => pipeline.data.nodes.find((n) => n.id === id))
    : [];
  const byStage = new Map(unit.tasks.map((task) => [task.stage, task]));

  return (
    <PageCard
      documentTitle={[unit.name, project.data?.name]}
      title={<span data-testid="unit-name">{unit.name}</span>}
      actions={
        <>
          {(abilities?.units.update ?? false) ? (
            <Button
              component={Link}
              to={paths.app.unitEdit(unit.project, unit.id)}
              variant="default"
              leftSection={<IconEdit size={16} />}
              data-testid="unit-edit-open"
            >
              {t('Edit')}
            </Button>
          ) : null}
          {(abilities?.units.delete ?? false) ? (
            <RecordDeleteButton record={record} name={unit.name} testId="unit-delete" />
          ) : null}
        </>
      }
    >
      <Stack gap="md" data-testid="unit-card" data-id={unit.id}>
        {unit.description ? <UserMarkdown text={unit.description} testId="unit-description" /> : null}
        <Text size="sm">
          {t('Pipeline')}:{' '}
          <Anchor component={Link} to={paths.app.pipeline(unit.project, unit.pipeline)} data-testid="unit-pipeline">
            {pipeline.data?.name ?? t('Pipeline {{id}}', { id: unit.pipeline })}
          </Anchor>
        </Text>
        {pipeline.isPending ? (
          <Loader size="sm" />
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" highlightOnHover data-testid="unit-tasks">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('Stage')}</Table.Th>
                  <Table.Th>{t('Status')}</Table.Th>
                  <Table.Th>{t('Assignees')}</Table.Th>
                  <Table.Th>{t('Due date')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {stages.map((stage) => {
                  const task = stage ? byStage.get(stage.id) : undefined;
                  if (!stage || !task) return null;
                  return (
                    <Table.Tr key={stage.id} data-testid="unit-task" data-task-id={task.id} data-status={task.status}>
                      <Table.Td>
                        <Anchor component={Link} to={paths.app.task(task.id)}>
                          {stage.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <TaskStatusBadge status={task.status} />
                          <TaskFlags ready={task.ready} overdue={task.overdue} status={task.status} />
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {task.assignees.length
                            ? task.assignees.map((id) => names.get(id) ?? t('User {{id}}', { id })).join(', ')
                            : '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c={task.overdue ? 'red' : undefined}>
                          {task.due_date ? formatCalendar(task.due_date) : '—'}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <UnitFields unit={unit} canEdit={abilities?.units.update ?? false} people={members.data ?? []} />
        <HistoryTimeline
          of={{ unit: unit.id }}
          people={names}
          taskLabel={(taskId) => {
            const stage = unit.tasks.find((task) => task.id === taskId)?.stage;
            return stage === undefined ? undefined : pipeline.data?.nodes.find((n) => n.id === stage)?.name;
          }}
        />
        <FilesPanel target={{ unit: unit.id }} canAttach={abilities?.attach ?? false} />
        {project.data ? <CommentsPanel target={{ unit: unit.id }} workspaceId={project.data.workspace} /> : null}
      </Stack>
    </PageCard>
  );
}
