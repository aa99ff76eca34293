import { ActionIcon } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { BaseEdge, EdgeLabelRenderer, getSmoothStepPath, type EdgeProps } from '@xyflow/react';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFlowActions } from './flow-actions';
import classes from './flow.module.css';

/** A smooth-step edge with an arrow; in the editor a delete button shows on hover or selection. */
export const StageEdge = memo(function StageEdge(props: EdgeProps) {
  const { id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, selected, style } = props;
  const { t } = useTranslation();
  const actions = useFlowActions();
  const [hovered, setHovered] = useState(false);
  const [path, labelX, labelY] = getSmoothStepPath({
    sourceX,
    sourceY,
    targetX,
    targetY,
    sourcePosition,
    targetPosition,
    borderRadius: 8,
  });
  return (
    <>
      <g onMouseEnter={() => setHovered(true)} onMouseLeave={() => setHovered(false)}>
        <BaseEdge
          id={id}
          path={path}
          markerEnd={markerEnd}
          interactionWidth={16}
          style={{
            ...style,
            strokeWidth: selected ? 2.5 : 1.5,
            stroke: selected ? 'var(--mantine-primary-color-filled)' : undefined,
          }}
        />
      </g>
      {actions ? (
        <EdgeLabelRenderer>
          <ActionIcon
            size="sm"
            radius="xl"
            color="red"
            variant="filled"
            className={`${classes.edgeDelete} nodrag nopan`}
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            data-visible={hovered || selected ? 'true' : 'false'}
            data-testid="flow-edge-delete"
            data-edge={id}
            aria-label={t('Remove connection')}
            onMouseEnter={() => setHovered(true)}
            onMouseLeave={() => setHovered(false)}
            onClick={() => actions.removeEdge(id)}
          >
            <IconX size={12} />
          </ActionIcon>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
});

export const edgeTypes = { stage: StageEdge };
