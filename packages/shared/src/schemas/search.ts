import { z } from 'zod';
import { ZTaskStatus } from './units';
import { zWholeNumber } from '../validation';

/** GET search/?q=: records named like `q` in the caller's workspaces, for the command palette. */
export const ZSearchQuery = z.object({
  q: z.string().trim().min(1).max(100),
  limit: zWholeNumber({ min: 1, max: 20 }).default(6),
});

const ZHit = z.object({ id: z.number().int(), name: z.string() });

export const ZSearchResult = z.object({
  workspaces: z.array(ZHit),
  projects: z.array(ZHit.extend({ workspace: z.number().int() })),
  pipelines: z.array(ZHit.extend({ project: z.number().int() })),
  units: z.array(ZHit.extend({ project: z.number().int(), pipeline: z.number().int() })),
  /** A task's name is its unit's and its stage's: `Shot 010 · Lighting`. */
  tasks: z.array(
    z.object({
      id: z.number().int(),
      unit: z.string(),
      stage: z.string(),
      status: ZTaskStatus,
      project: z.number().int(),
      pipeline: z.number().int(),
    }),
  ),
});
export type TSearchResult = z.infer<typeof ZSearchResult>;
