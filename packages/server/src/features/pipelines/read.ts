import { asc, eq, sql } from 'drizzle-orm';
import type { TPipeline } from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { countTasks } from '../tasks';
import { peopleOf } from './people';
import { presentPipeline } from './presenter';

const { pipelines, stages, stageEdges } = schema;

/** Start first, then stages by id, then the end: the order the API promises. */
export const nodeOrder = [sql`case ${stages.kind} when 'root' then 0 when 'stage' then 1 else 2 end`, asc(stages.id)];

/** A pipeline with its whole graph; also used inside a transaction (`db` may be one). */
export async function loadPipeline(
  db: Db,
  { pipelineId, workspaceId }: { pipelineId: number; workspaceId: number },
): Promise<TPipeline> {
  const [row] = await db.select().from(pipelines).where(eq(pipelines.id, pipelineId));
  if (!row) throw new AppError('not_found');
  const nodes = await db
    .select()
    .from(stages)
    .where(eq(stages.pipelineId, pipelineId))
    .orderBy(...nodeOrder);
  const edges = await db
    .select({ sourceId: stageEdges.sourceId, targetId: stageEdges.targetId })
    .from(stageEdges)
    .where(eq(stageEdges.pipelineId, pipelineId))
    .orderBy(asc(stageEdges.sourceId), asc(stageEdges.targetId));
  const people = await peopleOf(db, workspaceId, eq(stages.pipelineId, pipelineId));
  const counters = await countTasks(db, { pipelineIds: [pipelineId], by: 'stage' });
  return presentPipeline(row, nodes, edges, people, counters);
}
