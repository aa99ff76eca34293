import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZId, ZIdParams, ZProject, ZProjectCreate, ZProjectPatch, ZProjectWorkload } from '@stageline/shared';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  prepareProjectRead,
  projectWorkload,
  updateProject,
} from './service';

const bearer = [{ bearer: [] }];
const tags = ['projects'];
const forbidden = 'Non-members of the workspace get 404; members without the right 403.';

/** Projects of a workspace (docs/rules.md §Web, §Roles, §API). */
export const projectsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const projectRead = prepareProjectRead(db);
  const signedIn = { onRequest: app.authenticate };

  app.post(
    '/projects/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Create a project (Member and above)',
        description: `${forbidden} Review defaults not given are the product's: each_immediate, no skip, no accept-edit, To do on.`,
        security: bearer,
        body: ZProjectCreate,
        response: { 201: ZProject },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createProject(db, { userId: callerOf(request).id, input: request.body })),
  );

  app.get(
    '/projects/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "Projects of a workspace, or of all the caller's workspaces",
        description: 'A workspace the caller is not in answers 404.',
        security: bearer,
        querystring: z.object({ workspace: ZId.optional() }),
        response: { 200: z.array(ZProject) },
      },
    },
    async (request) => listProjects(db, { userId: callerOf(request).id, workspaceId: request.query.workspace }),
  );

  app.get(
    '/projects/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A project',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZProject },
      },
    },
    async (request) => getProject(projectRead, { userId: callerOf(request).id, projectId: request.params.id }),
  );

  app.get(
    '/projects/:id/workload/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "Who carries the project's open tasks: per effective assignee, open and overdue, most loaded first",
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZProjectWorkload },
      },
    },
    async (request) => projectWorkload(db, { userId: callerOf(request).id, projectId: request.params.id }),
  );

  app.patch(
    '/projects/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Edit a project and the review defaults of its new stages (Member and above)',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        body: ZProjectPatch,
        response: { 200: ZProject },
      },
    },
    async (request) =>
      updateProject(db, { userId: callerOf(request).id, projectId: request.params.id, patch: request.body }),
  );

  app.delete(
    '/projects/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete a project with its pipelines (Admin and above)',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null().describe('Done') },
      },
    },
    async (request, reply) => {
      await deleteProject(db, { userId: callerOf(request).id, projectId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
