import type { TTaskStatus } from '@stageline/shared';

/** One colour per status, the same as the pipeline diagram's counters. */
export const statusColors: Record<TTaskStatus, string> = {
  todo: 'gray',
  in_progress: 'blue',
  review: 'violet',
  edit: 'orange',
  done: 'green',
};
