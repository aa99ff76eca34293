import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZId, ZIdParams } from '@stageline/shared';
import {
  ZClientFeedbackList,
  ZDrawing,
  ZDrawingCreate,
  ZDrawingList,
  ZDrawingListQuery,
  ZReviewDecision,
  ZReviewItemsAdd,
  ZReviewLink,
  ZReviewLinkCreate,
  ZReviewLinkCreated,
  ZReviewLinkList,
  ZReviewSession,
  ZReviewSessionCreate,
  ZReviewSessionList,
  ZReviewSessionListQuery,
  ZReviewSessionPatch,
} from '@stageline/shared/review-sessions';
import type { FilesContext } from '../attachments';
import { callerOf } from '../auth';
import { createDrawing, listDrawings } from './drawings';
import { createLink, listLinks, revokeLink } from './links';
import {
  addItems,
  createSession,
  decideItem,
  deleteSession,
  listSessions,
  loadSession,
  removeItem,
  taskFeedback,
  updateSession,
} from './service';

const bearer = [{ bearer: [] }];
const tags = ['review sessions'];
const hidden = 'A session outside the caller’s workspaces answers 404.';
const ZItemParams = z.object({ id: ZId, item: ZId });

/** Review sessions, their items and decisions, and their client links (docs/review-sessions.md). */
export const reviewSessionsRoutes: FastifyPluginAsyncZod<{ ctx: FilesContext }> = async (app, { ctx }) => {
  const signedIn = { onRequest: app.authenticate };
  const { db } = ctx;
  const caller = (request: Parameters<typeof callerOf>[0]) => {
    const { id, sessionId } = callerOf(request);
    return { userId: id, sessionId };
  };

  app.post(
    '/review_sessions/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Build a session from picked tasks, a saved view, or a stage and status (Members and above)',
        description:
          'Every task must be one of the project’s (400 naming `source`); at most 500 items. A project outside the caller’s workspaces answers 404.',
        security: bearer,
        body: ZReviewSessionCreate,
        response: { 201: ZReviewSession },
      },
    },
    async (request, reply) => reply.status(201).send(await createSession(ctx, caller(request), request.body)),
  );

  app.get(
    '/review_sessions/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The sessions of a project, the newest first',
        security: bearer,
        querystring: ZReviewSessionListQuery,
        response: { 200: ZReviewSessionList },
      },
    },
    async (request) => listSessions(db, { userId: callerOf(request).id, projectId: request.query.project }),
  );

  app.get(
    '/review_sessions/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A session: its items in order, each with its task’s latest round of files',
        description: hidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZReviewSession },
      },
    },
    async (request) => loadSession(ctx, caller(request), request.params.id),
  );

  app.patch(
    '/review_sessions/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Rename, or reorder by every item id in the new order (Members and above)',
        description: `${hidden} An order that does not list every item once: 400 naming \`order\`.`,
        security: bearer,
        params: ZIdParams,
        body: ZReviewSessionPatch,
        response: { 200: ZReviewSession },
      },
    },
    async (request) => updateSession(ctx, caller(request), request.params.id, request.body),
  );

  app.delete(
    '/review_sessions/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete a session (its links stop opening; tasks and client decisions stay)',
        description: hidden,
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null().describe('Deleted') },
      },
    },
    async (request, reply) => {
      await deleteSession(db, { userId: callerOf(request).id, sessionId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/review_sessions/:id/items/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Add tasks at the end (those already in the session are skipped)',
        description: hidden,
        security: bearer,
        params: ZIdParams,
        body: ZReviewItemsAdd,
        response: { 200: ZReviewSession },
      },
    },
    async (request) => addItems(ctx, caller(request), request.params.id, request.body.source),
  );

  app.delete(
    '/review_sessions/:id/items/:item/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Take an item out of the session',
        description: `${hidden} An item already gone: 404 saying so.`,
        security: bearer,
        params: ZItemParams,
        response: { 200: ZReviewSession },
      },
    },
    async (request) => removeItem(ctx, caller(request), request.params.id, request.params.item),
  );

  app.post(
    '/review_sessions/:id/items/:item/decide/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Accept or reject the item’s task (the task engine’s rules), then keep the item or let it leave',
        description: `${hidden} Refused as POST tasks/{id}/accept|reject/ refuses (403 not a reviewer, 409 not in review); an item no longer in the session: 404 saying so, nothing stored.`,
        security: bearer,
        params: ZItemParams,
        body: ZReviewDecision,
        response: { 200: ZReviewSession },
      },
    },
    async (request) =>
      decideItem(ctx, caller(request), {
        sessionId: request.params.id,
        itemId: request.params.item,
        decision: request.body,
      }),
  );

  app.post(
    '/review_sessions/:id/links/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Create a client link: expiry in days, optional password, may comment, may decide',
        description: `${hidden} Admins; Members where the workspace allows it (others 403). The token is in this answer only.`,
        security: bearer,
        params: ZIdParams,
        body: ZReviewLinkCreate,
        response: { 201: ZReviewLinkCreated },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await createLink(db, ctx.keys, {
          userId: callerOf(request).id,
          sessionId: request.params.id,
          input: request.body,
        }),
      ),
  );

  app.get(
    '/review_sessions/:id/links/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The session’s client links, revoked and expired ones included',
        description: `${hidden} Those who may share (others 403).`,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZReviewLinkList },
      },
    },
    async (request) => listLinks(db, { userId: callerOf(request).id, sessionId: request.params.id }),
  );

  app.post(
    '/review_links/:id/revoke/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Revoke a client link: it stops opening at once',
        description: `${hidden} Those who may share (others 403).`,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZReviewLink },
      },
    },
    async (request) => revokeLink(db, { userId: callerOf(request).id, linkId: request.params.id }),
  );

  app.get(
    '/tasks/:id/client_feedback/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'What clients said about a task through review links: comments, approvals, change requests',
        description: 'A task outside the caller’s workspaces answers 404.',
        security: bearer,
        params: ZIdParams,
        response: { 200: ZClientFeedbackList },
      },
    },
    async (request) => taskFeedback(db, { userId: callerOf(request).id, taskId: request.params.id }),
  );

  app.post(
    '/drawings/',
    {
      ...signedIn,
      // A drawing of many strokes is larger than the usual 1 MB; the schema's own limits answer first.
      bodyLimit: 4 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Draw on a file of the comment’s task: vector shapes at a time of a video, or on an image',
        description:
          'The comment’s author only (403). Coordinates are 0–1 of the file’s width and height; at most 200 shapes and 10,000 points (400 naming `shapes`). A file of another task: 400 naming `file`. The round is the file’s; `frame` is the time at 24 fps. The PNG of the drawing is attached to the comment as a file (POST attachments/).',
        security: bearer,
        body: ZDrawingCreate,
        response: { 201: ZDrawing },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createDrawing(db, { userId: callerOf(request).id, input: request.body })),
  );

  app.get(
    '/drawings/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The drawings of a task’s comments, oldest first',
        description: 'A task outside the caller’s workspaces answers 404.',
        security: bearer,
        querystring: ZDrawingListQuery,
        response: { 200: ZDrawingList },
      },
    },
    async (request) => listDrawings(db, { userId: callerOf(request).id, taskId: request.query.task }),
  );
};
