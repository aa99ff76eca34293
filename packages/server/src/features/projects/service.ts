import { and, asc, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import {
  personName,
  ProjectWorkloadSize,
  type TProject,
  type TProjectCreate,
  type TProjectPatch,
  type TProjectWorkload,
} from '@stageline/shared';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { recordAudit } from '../audit';
import { overdueAt, rowsOf } from '../tasks';
import { actorIn, authorize, authorizeIn, inWorkspacesOf } from '../workspaces';
import { authorizeProject } from './policy';
import { presentProject, productReviewDefaults, reviewColumns } from './presenter';

const { projects, pipelines, memberships } = schema;

/** A project's columns and its count of pipelines. */
const projectColumns = {
  ...getTableColumns(projects),
  pipelinesCount: sql<number>`(select count(*)::int from ${pipelines} p where p.project_id = ${projects}.id)`,
};

async function selectProjects(db: Db, where: SQL | undefined): Promise<TProject[]> {
  const rows = await db
    .select(projectColumns)
    .from(projects)
    .where(where)
    .orderBy(asc(sql`lower(${projects.name})`), asc(projects.id));
  return rows.map((row) => presentProject({ ...row, pipelinesCount: Number(row.pipelinesCount) }));
}

async function projectById(db: Db, projectId: number): Promise<TProject> {
  const [project] = await selectProjects(db, eq(projects.id, projectId));
  if (!project) throw new AppError('not_found');
  return project;
}

/** POST projects/ (Member and above): review defaults from the body, else the product's. */
export async function createProject(db: Db, { userId, input }: { userId: number; input: TProjectCreate }) {
  await authorizeIn(db, { userId, workspaceId: input.workspace, resource: 'project', action: 'create' });
  const [row] = await db
    .insert(projects)
    .values({
      workspaceId: input.workspace,
      name: input.name,
      description: input.description ?? '',
      ...reviewColumns({ ...productReviewDefaults, ...input.defaults }),
    })
    .returning({ id: projects.id });
  return projectById(db, row!.id);
}

/**
 * GET projects/: the projects of one workspace (404 for a non-member), or of every workspace of the
 * caller when none is named.
 */
export async function listProjects(db: Db, { userId, workspaceId }: { userId: number; workspaceId?: number }) {
  if (workspaceId === undefined) return selectProjects(db, inWorkspacesOf(userId, projects.workspaceId));
  await actorIn(db, userId, workspaceId);
  return selectProjects(db, eq(projects.workspaceId, workspaceId));
}

/**
 * GET projects/{id}/'s one statement: the project with the caller's role in its workspace. Built
 * once per database and kept as a named prepared statement: building the query on each request was
 * a quarter of the route's CPU (docs/decisions.md, decision 116).
 */
export function prepareProjectRead(db: Db) {
  return db
    .select({ ...projectColumns, role: memberships.role })
    .from(projects)
    .innerJoin(
      memberships,
      and(eq(memberships.workspaceId, projects.workspaceId), eq(memberships.userId, sql.placeholder('userId'))),
    )
    .where(eq(projects.id, sql.placeholder('projectId')))
    .prepare('project_read');
}
export type ProjectRead = ReturnType<typeof prepareProjectRead>;

/** GET projects/{id}/: 404 when the project or the caller's membership is missing, as `authorizeProject` answers. */
export async function getProject(read: ProjectRead, { userId, projectId }: { userId: number; projectId: number }) {
  const [row] = await read.execute({ userId, projectId });
  if (!row) throw new AppError('not_found');
  const { role, ...project } = row;
  authorize({ userId, workspaceId: project.workspaceId, role }, 'project', 'view');
  return presentProject({ ...project, pipelinesCount: Number(project.pipelinesCount) });
}

/** PATCH projects/{id}/ (Member and above). New review defaults apply to stages created from now on. */
export async function updateProject(
  db: Db,
  { userId, projectId, patch }: { userId: number; projectId: number; patch: TProjectPatch },
) {
  await authorizeProject(db, { userId, projectId, action: 'update' });
  const changes = {
    ...Object.fromEntries(
      Object.entries({ name: patch.name, description: patch.description }).filter(([, v]) => v !== undefined),
    ),
    ...reviewColumns(patch.defaults ?? {}),
  };
  if (Object.keys(changes).length > 0) {
    await db
      .update(projects)
      .set({ ...changes, updatedAt: new Date() })
      .where(and(eq(projects.id, projectId)));
  }
  return projectById(db, projectId);
}

/** DELETE projects/{id}/ (Admin and above): its pipelines and stages go with it. */
export async function deleteProject(db: Db, { userId, projectId }: { userId: number; projectId: number }) {
  const { project } = await authorizeProject(db, { userId, projectId, action: 'delete' });
  await db.transaction(async (tx) => {
    await tx.delete(projects).where(eq(projects.id, projectId));
    await recordAudit(tx, project.workspaceId, {
      action: 'project.deleted',
      actorId: userId,
      target: { kind: 'project', id: projectId, name: project.name },
    });
  });
}

/**
 * GET projects/{id}/workload/ (anyone who may view the project): the open tasks (not done) of the
 * project per effective assignee — the stage's default people while the task uses them, else its
 * own, as `tasksOfPerson` reads them — with how many are overdue; most loaded first. One query.
 */
export async function projectWorkload(
  db: Db,
  { userId, projectId, now = new Date() }: { userId: number; projectId: number; now?: Date },
): Promise<TProjectWorkload> {
  await authorizeProject(db, { userId, projectId, action: 'view' });
  const rows = await rowsOf<{
    user_id: number;
    first_name: string;
    last_name: string;
    username: string;
    open: number;
    overdue: number;
  }>(
    db,
    sql`
    with open_tasks as (
      select t.id, t.stage_id, t.use_stage_defaults, ${overdueAt(now)} as overdue
      from tasks t join units u on u.id = t.unit_id
      where u.project_id = ${projectId} and t.status <> 'done'),
    carried as (
      select d.user_id, o.id, o.overdue from open_tasks o
        join stage_default_assignees d on d.stage_id = o.stage_id where o.use_stage_defaults
      union all
      select a.user_id, o.id, o.overdue from open_tasks o
        join task_assignees a on a.task_id = o.id where not o.use_stage_defaults)
    select c.user_id, p.first_name, p.last_name, p.username,
      count(*)::int as open, count(*) filter (where c.overdue)::int as overdue
    from carried c join users p on p.id = c.user_id
    group by c.user_id, p.first_name, p.last_name, p.username
    order by open desc, overdue desc, lower(p.username)
    limit ${ProjectWorkloadSize}`,
  );
  return {
    people: rows.map((row) => ({
      user_id: Number(row.user_id),
      name: personName({ firstName: row.first_name, lastName: row.last_name, username: row.username }),
      open: Number(row.open),
      overdue: Number(row.overdue),
    })),
  };
}
