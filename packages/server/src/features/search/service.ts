import { and, asc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { TSearchResult } from '@stageline/shared';
import { escapeLike, schema, type Db } from '../../db';
import { inWorkspacesOf } from '../workspaces';

const { workspaces, projects, pipelines, units, tasks, stages } = schema;

/** Whitespace-separated words, each of which must appear in the name (at most five). */
function wordsOf(q: string): string[] {
  return q.split(/\s+/).filter(Boolean).slice(0, 5);
}

const contains = (column: SQL | AnyColumn, word: string) => sql`${column} ilike ${`%${escapeLike(word)}%`}`;
/** Names that start with the query first, then shorter ones (closer matches), then by name. */
const rank = (column: AnyColumn, q: string) => [
  asc(sql`case when ${column} ilike ${`${escapeLike(q)}%`} then 0 else 1 end`),
  asc(sql`length(${column})`),
  asc(column),
];

/**
 * GET search/ (the command palette): workspaces, projects, pipelines, units and tasks whose names
 * hold every word of `q`, only in the caller's workspaces; a task matches on its unit's and stage's
 * names together ("shot 10 light"). At most `limit` of each kind.
 */
export async function search(db: Db, { userId, q, limit }: { userId: number; q: string; limit: number }) {
  const words = wordsOf(q);
  const every = (column: AnyColumn) => and(...words.map((word) => contains(column, word)));
  const [foundWorkspaces, foundProjects, foundPipelines, foundUnits, foundTasks] = await Promise.all([
    db
      .select({ id: workspaces.id, name: workspaces.name })
      .from(workspaces)
      .where(and(inWorkspacesOf(userId, workspaces.id), every(workspaces.name)))
      .orderBy(...rank(workspaces.name, q))
      .limit(limit),
    db
      .select({ id: projects.id, name: projects.name, workspace: projects.workspaceId })
      .from(projects)
      .where(and(inWorkspacesOf(userId, projects.workspaceId), every(projects.name)))
      .orderBy(...rank(projects.name, q))
      .limit(limit),
    db
      .select({ id: pipelines.id, name: pipelines.name, project: pipelines.projectId })
      .from(pipelines)
      .innerJoin(projects, eq(projects.id, pipelines.projectId))
      .where(and(inWorkspacesOf(userId, projects.workspaceId), every(pipelines.name)))
      .orderBy(...rank(pipelines.name, q))
      .limit(limit),
    db
      .select({ id: units.id, name: units.name, project: units.projectId, pipeline: units.pipelineId })
      .from(units)
      .innerJoin(projects, eq(projects.id, units.projectId))
      .where(and(inWorkspacesOf(userId, projects.workspaceId), every(units.name)))
      .orderBy(...rank(units.name, q))
      .limit(limit),
    db
      .select({
        id: tasks.id,
        unit: units.name,
        stage: stages.name,
        status: tasks.status,
        project: units.projectId,
        pipeline: units.pipelineId,
      })
      .from(tasks)
      .innerJoin(units, eq(units.id, tasks.unitId))
      .innerJoin(stages, eq(stages.id, tasks.stageId))
      .innerJoin(projects, eq(projects.id, units.projectId))
      .where(
        and(
          inWorkspacesOf(userId, projects.workspaceId),
          ...words.map((word) => sql`(${contains(units.name, word)} or ${contains(stages.name, word)})`),
        ),
      )
      .orderBy(...rank(units.name, q), asc(tasks.id))
      .limit(limit),
  ]);
  const result: TSearchResult = {
    workspaces: foundWorkspaces,
    projects: foundProjects,
    pipelines: foundPipelines,
    units: foundUnits,
    tasks: foundTasks,
  };
  return result;
}
