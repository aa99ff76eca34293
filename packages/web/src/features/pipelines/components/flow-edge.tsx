import { ActionIcon } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { BaseEdge, EdgeLabelRenderer, getSmoothStepPath, type EdgeProps, type Position } from '@xyflow/react';
import { createContext, memo, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { routeKey, type TPoint } from '../lib/layout';
import { useFlowActions } from './flow-actions';
import classes from './flow.module.css';

/** How long the delete button stays after the pointer leaves, so it can travel from line to button. */
const LeaveDelayMs = 200;

/** elk's routes of the last layout, by `routeKey` (see `layoutGraph`); none before one ran. */
export const EdgeRoutesContext = createContext<ReadonlyMap<string, TPoint[]> | null>(null);

/** React Flow ends an edge on the outer side of the handle, a few pixels off the node's border. */
const HandleSlack = 8;
const near = (p: TPoint, x: number, y: number) => Math.abs(p.x - x) <= HandleSlack && Math.abs(p.y - y) <= HandleSlack;

/**
 * elk's route with its ends moved onto React Flow's (the handles' outer sides), the next point
 * moved along so the first and last segments stay straight; null when the ends are elsewhere (a
 * node moved since the layout).
 */
export function fitRoute(route: readonly TPoint[] | undefined, source: TPoint, target: TPoint): TPoint[] | null {
  if (!route || route.length < 2) return null;
  if (!near(route[0]!, source.x, source.y) || !near(route.at(-1)!, target.x, target.y)) return null;
  if (route.length === 2) return [{ ...source }, { ...target }];
  const points = route.map((p) => ({ ...p }));
  const moveEnd = (end: number, next: number, to: TPoint) => {
    const [was, neighbour] = [points[end]!, points[next]!];
    if (neighbour.y === was.y) neighbour.y = to.y;
    if (neighbour.x === was.x) neighbour.x = to.x;
    points[end] = { ...to };
  };
  moveEnd(0, 1, source);
  moveEnd(points.length - 1, points.length - 2, target);
  return points;
}

/**
 * An orthogonal path through `points` with rounded corners, and its middle (for the delete button).
 */
export function routePath(points: readonly TPoint[], radius = 8): [string, number, number] {
  let path = `M ${points[0]!.x} ${points[0]!.y}`;
  for (let i = 1; i < points.length - 1; i += 1) {
    const [p, q, r] = [points[i - 1]!, points[i]!, points[i + 1]!];
    const inLength = Math.hypot(q.x - p.x, q.y - p.y);
    const outLength = Math.hypot(r.x - q.x, r.y - q.y);
    const bend = Math.min(radius, inLength / 2, outLength / 2);
    const before = { x: q.x - ((q.x - p.x) / (inLength || 1)) * bend, y: q.y - ((q.y - p.y) / (inLength || 1)) * bend };
    const after = {
      x: q.x + ((r.x - q.x) / (outLength || 1)) * bend,
      y: q.y + ((r.y - q.y) / (outLength || 1)) * bend,
    };
    path += ` L ${before.x} ${before.y} Q ${q.x} ${q.y} ${after.x} ${after.y}`;
  }
  const last = points[points.length - 1]!;
  path += ` L ${last.x} ${last.y}`;
  const middle = Math.floor((points.length - 1) / 2);
  const [a, b] = [points[middle]!, points[middle + 1] ?? points[middle]!];
  return [path, (a.x + b.x) / 2, (a.y + b.y) / 2];
}

/** Where a link meets a stage: the point and the side it leaves or enters by. */
export type TLinkEnd = TPoint & { position: Position };

/**
 * A link's path and its middle, as every diagram draws it: along elk's route while the route's ends
 * are where that layout left them (`routed`), else as a smooth step.
 */
export function linkPath(route: readonly TPoint[] | undefined, source: TLinkEnd, target: TLinkEnd) {
  const routed = fitRoute(route, source, target);
  const [path, labelX, labelY] = routed
    ? routePath(routed)
    : getSmoothStepPath({
        sourceX: source.x,
        sourceY: source.y,
        sourcePosition: source.position,
        targetX: target.x,
        targetY: target.y,
        targetPosition: target.position,
        borderRadius: 8,
      });
  return { path, labelX, labelY, routed: routed !== null };
}

/**
 * An edge with an arrow, drawn along elk's orthogonal route (around the nodes) while its ends are
 * where that layout left them, and as a smooth step once a node moved; in the editor a delete button shows on hover or selection. The
 * button exists only while shown: a 500-stage pipeline does not carry hundreds of hidden buttons.
 */
export const StageEdge = memo(function StageEdge(props: EdgeProps) {
  const {
    id,
    source,
    target,
    sourceX,
    sourceY,
    targetX,
    targetY,
    sourcePosition,
    targetPosition,
    markerEnd,
    selected,
    style,
  } = props;
  const actions = useFlowActions();
  const route = useContext(EdgeRoutesContext)?.get(routeKey(source, target));
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
  const { path, labelX, labelY, routed } = useMemo(
    () =>
      linkPath(
        route,
        { x: sourceX, y: sourceY, position: sourcePosition },
        { x: targetX, y: targetY, position: targetPosition },
      ),
    [route, sourceX, sourceY, sourcePosition, targetX, targetY, targetPosition],
  );
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
        <BaseEdge
          id={id}
          path={path}
          data-routed={routed ? 'true' : undefined}
          markerEnd={markerEnd}
          interactionWidth={16}
          style={edgeStyle}
        />
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
