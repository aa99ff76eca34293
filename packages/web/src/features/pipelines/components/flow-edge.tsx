import { ActionIcon } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { BaseEdge, EdgeLabelRenderer, getSmoothStepPath, type EdgeProps } from '@xyflow/react';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFlowActions } from './flow-actions';
import classes from './flow.module.css';

/** How long the delete button stays after the pointer leaves, so it can travel from line to button. */
const LeaveDelayMs = 200;

/**
 * A smooth-step edge with an arrow; in the editor a delete button shows on hover or selection. The
 * button exists only while shown: a 500-stage pipeline does not carry hundreds of hidden buttons.
 */
export const StageEdge = memo(function StageEdge(props: EdgeProps) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, selected, style } = props;
  const actions = useFlowActions();
  const [hovered, setHovered] = useState(false);
  const leaveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const enter = useCallback(() => {
    clearTimeout(leaveTimer.current);
    setHovered(true);
  }, []);
  const leave = useCallback(() => {
    clearTimeout(leaveTimer.current);
    leaveTimer.current = setTimeout(() => setHovered(false), LeaveDelayMs);
  }, []);
  useEffect(() => () => clearTimeout(leaveTimer.current), []);
  const [path, labelX, labelY] = getSmoothStepPath({
    sourceX,
    sourceY,
    targetX,
    targetY,
    sourcePosition,
    targetPosition,
    borderRadius: 8,
  });
  const edgeStyle = useMemo(
    () => ({
      ...style,
      strokeWidth: selected ? 2.5 : 1.5,
      stroke: selected ? 'var(--mantine-primary-color-filled)' : undefined,
    }),
    [style, selected],
  );
  const visible = hovered || !!selected;
  return (
    <>
      <g onMouseEnter={enter} onMouseLeave={leave}>
        <BaseEdge id={id} path={path} markerEnd={markerEnd} interactionWidth={16} style={edgeStyle} />
      </g>
      {actions && visible ? (
        <EdgeDelete
          id={id}
          x={labelX}
          y={labelY}
          onEnter={enter}
          onLeave={leave}
          onRemove={() => actions.removeEdge(id)}
        />
      ) : null}
    </>
  );
});

/** The delete button at an edge's middle; its own component, so hundreds of edges skip i18n. */
function EdgeDelete({
  id,
  x,
  y,
  onEnter,
  onLeave,
  onRemove,
}: {
  id: string;
  x: number;
  y: number;
  onEnter: () => void;
  onLeave: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  return (
    <EdgeLabelRenderer>
      <ActionIcon
        size="sm"
        radius="xl"
        color="red"
        variant="filled"
        className={`${classes.edgeDelete} nodrag nopan`}
        style={{ transform: `translate(-50%, -50%) translate(${x}px, ${y}px)` }}
        data-visible="true"
        data-testid="flow-edge-delete"
        data-edge={id}
        aria-label={t('Remove connection')}
        onMouseEnter={onEnter}
        onMouseLeave={onLeave}
        onClick={onRemove}
      >
        <IconX size={12} />
      </ActionIcon>
    </EdgeLabelRenderer>
  );
}

export const edgeTypes = { stage: StageEdge };
