import { ActionIcon, Badge, Button, Drawer, Group, SegmentedControl, Stack, Text, Tooltip } from '@mantine/core';
import { IconMaximize, IconMinimize } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useState, type ComponentType, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  paths,
  TaskStatuses,
  TaskStatusLabels,
  type TLayout,
  type TPipeline,
  type TPipelineNode,
  type TTaskStatus,
} from '@stageline/shared';
import { overdueColor, statusColors, statusFill } from '../../../shared/ui/status-colors';
import { PageCard } from '../../../shared/ui/page-card';
import { UserMarkdown } from '../../../shared/ui/user-markdown';
import { pipelineQuery, withStages } from '../api';
import classes from '../components/flow.module.css';
import { PipelineDiagram } from '../components/pipeline-diagram';
import { RoutePipeline } from '../components/route-pipeline';
import { StageSettingsDrawerOnDemand } from '../components/stage-settings-on-demand';
import { StageSummary } from '../components/stage-summary';
import { usePipelineViewState } from '../hooks/use-pipeline-view-state';
import { useDiagramLayout } from '../hooks/use-diagram-layout';
import { pipelineToSnapshot, type TFlowNode } from '../lib/graph-model';

/** What the pipeline screen shows of one unit (`?unit=`) or task (`?task=`): drawn by the tasks feature. */
export type TPipelineFocusProps = {
  pipeline: TPipeline;
  unitId: number | null;
  taskId: number | null;
  /** Opens another unit or task of the pipeline in the panel (a new history entry). */
  onOpen: (changes: { unit?: number | null; task?: number | null }) => void;
  /** The panel's title and the statuses to paint on the stages (stage id → status), once loaded. */
  onShow: (shown: { title: string; statuses: Map<number, TTaskStatus> } | null) => void;
};

/**
 * `.../pipelines/{pipelineId}`: the diagram with task counters; its view state lives in the URL. With
 * `?unit=` or `?task=` the `Focus` given by the app paints that unit's tasks on the stages and opens
 * it in the side panel (docs/rules.md §Web).
 */
export default function PipelineScreen({ Focus }: { Focus?: ComponentType<TPipelineFocusProps> }) {
  return (
    <RoutePipeline>
      {(pipeline, projectId) => <PipelineView pipeline={pipeline} projectId={projectId} Focus={Focus} />}
    </RoutePipeline>
  );
}

function PipelineView({
  pipeline,
  projectId,
  Focus,
}: {
  pipeline: TPipeline;
  projectId: number;
  Focus?: ComponentType<TPipelineFocusProps>;
}) {
  const { t } = useTranslation();
  const [shown, setShown] = useState<{ title: string; statuses: Map<number, TTaskStatus> } | null>(null);
  const view = usePipelineViewState();
  const flow = useReactFlow<TFlowNode>();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<TPipelineNode[] | null>(null);
  const layout: TLayout = view.horizontal === null ? pipeline.layout : view.horizontal ? 'horizontal' : 'vertical';
  const base = useMemo(() => pipelineToSnapshot(pipeline, layout), [pipeline, layout]);
  const laidOut = useDiagramLayout(base);
  useEffect(() => {
    requestAnimationFrame(() => void flow.fitView({ padding: 0.15, maxZoom: 1.25 }));
  }, [layout, view.fullscreen, flow]);

  const selected = useMemo(() => new Set(view.selected.map(String)), [view.selected]);
  const focused = view.stage === null && (view.unit !== null || view.task !== null);
  const nodes = useMemo(
    () =>
      laidOut.nodes.map((n) => {
        const isSelected = selected.has(n.id);
        // The open unit's task on this stage, in the status palette (shared/ui/status-colors.ts).
        const status = focused ? shown?.statuses.get(Number(n.id)) : undefined;
        const painted = status
          ? {
              className: `unit-status unit-status-${status}`,
              style: {
                outline: `3px solid ${statusFill(status)}`,
                outlineOffset: 2,
                borderRadius: 8,
              },
            }
          : {};
        return isSelected || status ? { ...n, ...painted, selected: isSelected } : n;
      }),
    [laidOut.nodes, selected, focused, shown],
  );

  const onNodeClick = useCallback(
    (event: MouseEvent, node: TFlowNode) => {
      if (node.data.kind !== 'stage') return;
      const id = Number(node.id);
      const many = event.shiftKey || event.ctrlKey || event.metaKey;
      if (!many) view.select(view.selected.length === 1 && view.selected[0] === id ? [] : [id]);
      else view.select(view.selected.includes(id) ? view.selected.filter((s) => s !== id) : [...view.selected, id]);
    },
    [view],
  );
  const onNodeDoubleClick = useCallback(
    (_event: MouseEvent, node: TFlowNode) => {
      if (node.data.kind === 'stage') view.open({ stage: Number(node.id) });
    },
    [view],
  );
  const onPaneClick = useCallback(() => {
    if (view.selected.length) view.select([]);
  }, [view]);

  const stage =
    view.stage === null ? null : (pipeline.nodes.find((n) => n.id === view.stage && n.kind === 'stage') ?? null);
  const drawerTitle = stage
    ? stage.name
    : (shown?.title ??
      (view.task !== null
        ? t('Task {{id}}', { id: view.task })
        : view.unit !== null
          ? t('Unit {{id}}', { id: view.unit })
          : ''));
  const drawerOpen = stage !== null || view.unit !== null || view.task !== null;
  const counters = pipeline.task_counters;

  return (
    <PageCard
      wide
      title={pipeline.name}
      actions={
        <>
          <Button
            variant="default"
            component={Link}
            to={paths.app.pipelineEdit(projectId, pipeline.id)}
            data-testid="pipeline-edit"
          >
            {t('Edit')}
          </Button>
          <Button component={Link} to={paths.app.pipelineFlow(projectId, pipeline.id)} data-testid="pipeline-edit-flow">
            {t('Edit diagram')}
          </Button>
        </>
      }
    >
      {pipeline.description ? <UserMarkdown text={pipeline.description} testId="pipeline-description" /> : null}
      <Group justify="space-between" gap="xs">
        <Group gap={6} data-testid="pipeline-counters">
          {TaskStatuses.map((status) => (
            // The status palette: these badges are also the legend of the stages' counters.
            <Badge key={status} variant="light" color={statusColors[status]} data-status={status}>
              {t(TaskStatusLabels[status])}: {counters[status]}
            </Badge>
          ))}
          {/* Red only when something is overdue, as on a stage (stage-summary). */}
          <Badge
            variant={counters.overdue > 0 ? 'filled' : 'light'}
            color={counters.overdue > 0 ? overdueColor : 'gray'}
            data-testid="pipeline-overdue"
            data-overdue={counters.overdue > 0}
          >
            {t('Overdue')}: {counters.overdue}
          </Badge>
        </Group>
        <Group gap="xs">
          {view.selected.length ? (
            <Text size="sm" c="dimmed" data-testid="pipeline-selected-count">
              {t('{{count}} selected', { count: view.selected.length })}
            </Text>
          ) : null}
          <SegmentedControl
            size="xs"
            value={layout}
            onChange={(value) => view.open({ horizontal: value === 'horizontal' })}
            data={[
              { value: 'horizontal', label: t('Horizontal') },
              { value: 'vertical', label: t('Vertical') },
            ]}
            data-testid="pipeline-view-orientation"
          />
          <FullscreenButton on={view.fullscreen} onToggle={() => view.open({ fullscreen: !view.fullscreen })} />
        </Group>
      </Group>
      <div
        className={view.fullscreen ? `${classes.canvas} ${classes.fullscreen}` : classes.canvas}
        data-testid="pipeline-diagram"
        data-fullscreen={view.fullscreen ? 'true' : 'false'}
        data-layout={layout}
      >
        {view.fullscreen ? (
          <div style={{ position: 'absolute', top: 8, right: 8, zIndex: 10 }}>
            <FullscreenButton on onToggle={() => view.open({ fullscreen: false })} />
          </div>
        ) : null}
        <PipelineDiagram
          nodes={nodes}
          edges={base.edges}
          routes={laidOut.routes}
          nodesDraggable={false}
          nodesConnectable={false}
          edgesFocusable={false}
          elementsSelectable
          onNodeClick={onNodeClick}
          onNodeDoubleClick={onNodeDoubleClick}
          onPaneClick={onPaneClick}
          multiSelectionKeyCode={null}
          selectionKeyCode={null}
          deleteKeyCode={null}
          zoomOnDoubleClick={false}
        />
      </div>
      <Drawer
        opened={drawerOpen}
        onClose={() => view.open({ stage: null, unit: null, task: null })}
        position="right"
        size="md"
        // A unit or task keeps the painted diagram in sight beside the panel.
        withOverlay={!focused}
        title={drawerTitle}
        data-testid="pipeline-view-stage-drawer"
      >
        {stage ? (
          <Stack>
            <StageSummary stage={stage} counters={pipeline.stage_counters[String(stage.id)]} projectId={projectId} />
            <Group>
              <Button variant="default" onClick={() => setEditing([stage])} data-testid="pipeline-view-stage-edit">
                {t('Edit stage')}
              </Button>
            </Group>
          </Stack>
        ) : focused && Focus ? (
          <Focus
            pipeline={pipeline}
            unitId={view.unit}
            taskId={view.task}
            onOpen={(changes) => view.open(changes)}
            onShow={setShown}
          />
        ) : null}
      </Drawer>
      <StageSettingsDrawerOnDemand
        projectId={projectId}
        stages={editing}
        onClose={() => setEditing(null)}
        onSaved={(stages) =>
          queryClient.setQueryData(pipelineQuery(pipeline.id).queryKey, (current) =>
            current ? withStages(current, stages) : current,
          )
        }
      />
    </PageCard>
  );
}

function FullscreenButton({ on, onToggle }: { on: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const label = on ? t('Exit full screen') : t('Full screen');
  return (
    <Tooltip label={label}>
      <ActionIcon variant="default" aria-label={label} onClick={onToggle} data-testid="pipeline-view-fullscreen">
        {on ? <IconMinimize size={16} /> : <IconMaximize size={16} />}
      </ActionIcon>
    </Tooltip>
  );
}
