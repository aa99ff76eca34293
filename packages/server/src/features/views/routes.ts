import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParams, ZView, ZViewCreate, ZViewListQuery, ZViewPatch } from '@stageline/shared';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { createView, deleteView, listViews, updateView } from './service';

const bearer = [{ bearer: [] }];
const tags = ['views'];
const hidden = 'Non-members of the workspace get 404; so does someone else’s personal view.';

/** Saved views of the matrix and the task lists (docs/decisions.md). */
export const viewsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };

  app.post(
    '/views/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Save the filters and sort of the matrix or a task list by name, for yourself or shared',
        description: `${hidden} Sharing with the workspace needs a Member or above. \`filters\` are the screen's URL query, e.g. \`{"status": "review", "assignee": "me"}\`.`,
        security: bearer,
        body: ZViewCreate,
        response: { 201: ZView },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createView(db, { userId: callerOf(request).id, input: request.body })),
  );

  app.get(
    '/views/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Your views of a project and its shared ones, by name',
        description: hidden,
        security: bearer,
        querystring: ZViewListQuery,
        response: { 200: z.array(ZView) },
      },
    },
    async (request) =>
      listViews(db, { userId: callerOf(request).id, projectId: request.query.project, kind: request.query.kind }),
  );

  app.patch(
    '/views/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Rename or change a view, or share it',
        description: `${hidden} Its author may; a shared view also an Admin or the owner (others 403).`,
        security: bearer,
        params: ZIdParams,
        body: ZViewPatch,
        response: { 200: ZView },
      },
    },
    async (request) => updateView(db, { userId: callerOf(request).id, viewId: request.params.id, patch: request.body }),
  );

  app.delete(
    '/views/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete a view',
        description: `${hidden} Its author may; a shared view also an Admin or the owner (others 403).`,
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null().describe('Deleted') },
      },
    },
    async (request, reply) => {
      await deleteView(db, { userId: callerOf(request).id, viewId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
