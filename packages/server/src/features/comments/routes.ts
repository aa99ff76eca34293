import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZComment, ZCommentCreate, ZCommentList, ZCommentListQuery, ZCommentPatch, ZIdParams } from '@stageline/shared';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { createComment, deleteComment, listComments, updateComment } from './service';

const bearer = [{ bearer: [] }];
const tags = ['comments'];
const hidden = 'Non-members of the workspace get 404.';

/** Markdown comments on tasks and units (docs/rules.md §Web, §Notifications, §API). */
export const commentsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };

  app.post(
    '/comments/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Comment on a task or a unit (every member, Guests included)',
        description: `${hidden} \`@username\` mentions of members notify them; the text is stored as written (Markdown, rendered by the client as text).`,
        security: bearer,
        body: ZCommentCreate,
        response: { 201: ZComment },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createComment(db, { userId: callerOf(request).id, input: request.body })),
  );

  app.get(
    '/comments/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Comments of a task or a unit, oldest first',
        description: `${hidden} \`next\` is the next offset or null.`,
        security: bearer,
        querystring: ZCommentListQuery,
        response: { 200: ZCommentList },
      },
    },
    async (request) => listComments(db, { userId: callerOf(request).id, query: request.query }),
  );

  app.patch(
    '/comments/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Edit a comment (its author only); sets `edited_at`',
        description: `${hidden} Others get 403. People newly mentioned are notified.`,
        security: bearer,
        params: ZIdParams,
        body: ZCommentPatch,
        response: { 200: ZComment },
      },
    },
    async (request) =>
      updateComment(db, { userId: callerOf(request).id, commentId: request.params.id, text: request.body.text }),
  );

  app.delete(
    '/comments/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete a comment (its author, or Admin and above)',
        description: `${hidden} Others get 403.`,
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null().describe('Done') },
      },
    },
    async (request, reply) => {
      await deleteComment(db, { userId: callerOf(request).id, commentId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
