import type { CSSProperties } from 'react';
import type { TTaskStatus } from '@stageline/shared';

/**
 * The status palette (docs/design.md): one Mantine colour per task status, the only place it is
 * written. The matrix cells, the status badges, the diagram's counters and outlines, and the
 * progress bars all read it, so a status looks the same everywhere. Grey waits, blue moves, violet
 * is with a reviewer, orange came back, green is finished; red is kept for overdue alone.
 */
export const statusColors: Record<TTaskStatus, string> = {
  todo: 'gray',
  in_progress: 'blue',
  review: 'violet',
  edit: 'orange',
  done: 'green',
};

/** Overdue is a flag on top of a status, never a status: always red, always filled. */
export const overdueColor = 'red';

/**
 * A soft chip of a status: the palette's light background and its text colour (the theme's
 * resolver keeps that pair at 4.5:1 in both schemes, docs/accessibility.md).
 */
export function statusChipStyle(status: TTaskStatus): CSSProperties {
  const color = statusColors[status];
  return { background: `var(--mantine-color-${color}-light)`, color: `var(--mantine-color-${color}-light-color)` };
}

/** The strong tone of a status: bar sections, outlines, legend swatches. */
export const statusFill = (status: TTaskStatus) => `var(--mantine-color-${statusColors[status]}-filled)`;
