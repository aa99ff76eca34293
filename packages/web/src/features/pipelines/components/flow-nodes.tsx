import { Button } from '@mantine/core';
import { IconAlarm, IconBolt, IconHourglass, IconSettings, IconUser } from '@tabler/icons-react';
import { Handle, NodeToolbar, Position, useStore, type NodeProps, type ReactFlowState } from '@xyflow/react';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { ReviewModeLabels, TaskStatuses, TaskStatusLabels, type TReviewMode } from '@stageline/shared';
import { statusChipStyle } from '../../../shared/ui/status-colors';
import type { TFlowNode } from '../lib/graph-model';
import { useFlowActions } from './flow-actions';
import classes from './flow.module.css';

const modeIcons: Record<TReviewMode, typeof IconBolt> = {
  each_immediate: IconBolt,
  each_wait: IconHourglass,
  any: IconUser,
};

/**
 * Below this zoom a stage's details are too small to read (a 500-stage pipeline fits the screen at
 * about 0.05): stages draw as a box with the name only, which makes the first render of a large
 * pipeline and every zoom-out frame several times lighter. Zooming in brings the details back.
 */
export const CompactZoom = 0.45;
/**
 * Below this zoom a stage is a few pixels wide (a 500-stage pipeline fits the screen at 0.05): its
 * name would be under 4 px high and its handles under a pixel, so it draws as a bare box. Its
 * handles' places are declared on the node (`nodeHandles`), so edges keep their ends without them;
 * the name stays the node's accessible label (`PipelineDiagram`). Skipping 1,000 handles (each a
 * store subscription) and 500 names is what makes fitting a large pipeline on screen cheap.
 */
export const TinyZoom = 0.15;
type TDetail = 'full' | 'compact' | 'tiny';
const detail = (s: ReactFlowState): TDetail =>
  s.transform[2] < TinyZoom ? 'tiny' : s.transform[2] < CompactZoom ? 'compact' : 'full';

/** Stage: the full node, the compact one when zoomed out, a bare box when far out. */
export const StageNode = memo(function StageNode(props: NodeProps<TFlowNode>) {
  const level = useStore(detail);
  const actions = useFlowActions();
  const body =
    level === 'tiny' ? (
      <TinyStage {...props} />
    ) : level === 'compact' ? (
      <CompactStage {...props} />
    ) : (
      <FullStage {...props} />
    );
  // In the editor a selected stage shows its "Settings" above it, at any zoom (decision 201); drawn
  // only while selected, so a large pipeline pays for one toolbar, not one per stage.
  if (!actions || !props.selected) return body;
  return (
    <>
      {body}
      <StageToolbar id={props.id} openSettings={actions.openSettings} />
    </>
  );
});

/** Above the one selected stage (React Flow shows it then): its settings, by pointer or touch. */
function StageToolbar({ id, openSettings }: { id: string; openSettings: (nodeId: string) => void }) {
  const { t } = useTranslation();
  return (
    <NodeToolbar position={Position.Top} offset={6}>
      <Button
        size="compact-xs"
        variant="default"
        leftSection={<IconSettings size={12} />}
        onClick={() => openSettings(id)}
        data-testid="flow-node-settings"
      >
        {t('Settings')}
      </Button>
    </NodeToolbar>
  );
}

/** The box of a stage at each level of detail: its class and what tests and styles read of it. */
function stageBox({ id, data, selected }: Pick<NodeProps<TFlowNode>, 'id' | 'data' | 'selected'>, level: TDetail) {
  return {
    className: level === 'full' ? classes.node : `${classes.node} ${classes.compact}`,
    'data-testid': 'flow-node',
    'data-id': id,
    'data-kind': 'stage',
    ...(level === 'full' ? {} : { 'data-compact': 'true' }),
    ...(level === 'tiny' ? { 'data-tiny': 'true' } : {}),
    'data-selected': selected ? 'true' : 'false',
    'data-highlighted': data.highlighted ? 'true' : 'false',
  };
}

/** Far out: the box alone, with its selection and highlight. */
function TinyStage({ id, data, selected }: NodeProps<TFlowNode>) {
  return <div {...stageBox({ id, data, selected }, 'tiny')} />;
}

/**
 * Zoomed out: the name and the task counters (larger, so they stay legible longer), and the two
 * handles. Wherever a stage shows its name it shows its counts (decision 204).
 */
function CompactStage({ id, data, selected, sourcePosition, targetPosition }: NodeProps<TFlowNode>) {
  return (
    <div {...stageBox({ id, data, selected }, 'compact')}>
      <Handle type="target" position={targetPosition ?? Position.Left} className={classes.handle} />
      <span className={classes.name}>{data.name}</span>
      {data.counters ? <StageCounters counters={data.counters} /> : null}
      <Handle type="source" position={sourcePosition ?? Position.Right} className={classes.handle} />
    </div>
  );
}

/** Stage: name, review mode, task counters by status and overdue; a checkbox in the editor. */
function FullStage({ id, data, selected, sourcePosition, targetPosition }: NodeProps<TFlowNode>) {
  const { t } = useTranslation();
  const actions = useFlowActions();
  const mode = data.stage?.review_mode;
  const Icon = mode ? modeIcons[mode] : null;
  const counters = data.counters;
  return (
    <div {...stageBox({ id, data, selected }, 'full')}>
      <Handle type="target" position={targetPosition ?? Position.Left} className={classes.handle} />
      <div className={classes.header}>
        {actions ? (
          // A native checkbox: 500 of Mantine's would dominate the first render of a large pipeline.
          <input
            type="checkbox"
            className={`${classes.check} nodrag`}
            aria-label={t('Select stage')}
            data-testid="flow-node-checkbox"
            checked={!!selected}
            onChange={(event) => {
              actions.toggleSelect(id);
              // Give the keyboard back to the diagram, so Delete acts on the selection.
              event.currentTarget.blur();
            }}
            onClick={(event) => event.stopPropagation()}
          />
        ) : null}
        <span className={classes.name} title={data.name}>
          {data.name}
        </span>
        {Icon && mode ? (
          <span
            className={classes.mode}
            role="img"
            title={t(ReviewModeLabels[mode])}
            aria-label={t(ReviewModeLabels[mode])}
          >
            <Icon size={14} />
          </span>
        ) : null}
      </div>
      {counters ? <StageCounters counters={counters} /> : null}
      <Handle type="source" position={sourcePosition ?? Position.Right} className={classes.handle} />
    </div>
  );
}

/** A stage's task counts by status (only those above zero) and its overdue count. */
function StageCounters({ counters }: { counters: NonNullable<TFlowNode['data']['counters']> }) {
  const { t } = useTranslation();
  return (
    <div className={classes.counters} data-testid="flow-node-counters">
      {TaskStatuses.filter((status) => counters[status] > 0).map((status) => (
        <span
          key={status}
          className={classes.counter}
          data-status={status}
          style={statusChipStyle(status)}
          title={`${t(TaskStatusLabels[status])}: ${counters[status]}`}
          aria-label={`${t(TaskStatusLabels[status])}: ${counters[status]}`}
        >
          {counters[status]}
        </span>
      ))}
      {TaskStatuses.every((status) => counters[status] === 0) ? (
        <span className={classes.noTasks}>{t('No tasks')}</span>
      ) : null}
      {counters.overdue > 0 ? (
        <span
          className={classes.counter}
          data-status="overdue"
          title={`${t('Overdue')}: ${counters.overdue}`}
          aria-label={`${t('Overdue')}: ${counters.overdue}`}
        >
          <IconAlarm size={10} aria-hidden /> {counters.overdue}
        </span>
      ) : null}
    </div>
  );
}

/** Start: only an output. */
export const RootNode = memo(function RootNode({ id, selected, sourcePosition }: NodeProps<TFlowNode>) {
  const { t } = useTranslation();
  return (
    <div
      className={classes.root}
      data-testid="flow-node"
      data-id={id}
      data-kind="root"
      data-selected={selected ? 'true' : 'false'}
    >
      {t('Start')}
      <Handle type="source" position={sourcePosition ?? Position.Right} className={classes.handle} />
    </div>
  );
});

/** End: only an input. */
export const EndNode = memo(function EndNode({ id, selected, targetPosition }: NodeProps<TFlowNode>) {
  const { t } = useTranslation();
  return (
    <div
      className={classes.end}
      data-testid="flow-node"
      data-id={id}
      data-kind="end"
      data-selected={selected ? 'true' : 'false'}
    >
      <Handle type="target" position={targetPosition ?? Position.Left} className={classes.handle} />
      {t('End')}
    </div>
  );
});

export const nodeTypes = { stage: StageNode, root: RootNode, end: EndNode };
