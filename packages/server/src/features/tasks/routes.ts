import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZIdParams, ZReject, ZReview, ZTask, ZTaskList, ZTaskListQuery, ZTaskPatch } from '@stageline/shared';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { actOnTask, patchTask, remindReviewers, takeTask } from './actions';
import { listTasks } from './list';
import { loadTask } from './read';

const bearer = [{ bearer: [] }];
const tags = ['tasks'];
const hidden = 'Non-members of the workspace get 404.';
const refusals =
  '403 without the right; 409 when the status does not allow it or the reviewer already reacted in this round ' +
  '(`rule` names the engine rule); the transition, its history and its effects are one transaction on the row-locked task.';

/** Tasks: details, the engine's transitions, edits and My work lists (docs/rules.md §Tasks, §API). */
export const tasksRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };

  app.get(
    '/tasks/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "Tasks of the caller's workspaces: My work (assignee=me, reviewer=me: effective people), filters",
        description: `Soonest due first. \`next\` is the offset of the next page or null. A named workspace, pipeline or unit the caller cannot see answers 404.`,
        security: bearer,
        querystring: ZTaskListQuery,
        response: { 200: ZTaskList },
      },
    },
    async (request) => listTasks(db, { userId: callerOf(request).id, query: request.query }),
  );

  app.get(
    '/tasks/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A task with its people, round, predecessors and history',
        description: hidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZTask },
      },
    },
    async (request) => loadTask(db, { userId: callerOf(request).id, taskId: request.params.id }),
  );

  app.patch(
    '/tasks/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Set status, people, due date or use-stage-defaults (Member and above)',
        description: `${hidden} People must be members of the workspace. Giving people or a due date switches the task to its own values. ${refusals}`,
        security: bearer,
        params: ZIdParams,
        body: ZTaskPatch,
        response: { 200: ZTask },
      },
    },
    async (request) => patchTask(db, { userId: callerOf(request).id, taskId: request.params.id, patch: request.body }),
  );

  for (const type of ['start', 'submit'] as const) {
    app.post(
      `/tasks/:id/${type}/`,
      {
        ...signedIn,
        schema: {
          tags,
          summary:
            type === 'start'
              ? 'To do → Work in progress (assignees, Member and above)'
              : 'Send for review, or to Done when review is skipped (assignees, Member and above)',
          description: `${hidden} ${refusals}`,
          security: bearer,
          params: ZIdParams,
          response: { 200: ZTask },
        },
      },
      async (request) => actOnTask(db, { userId: callerOf(request).id, taskId: request.params.id, command: { type } }),
    );
  }

  app.post(
    '/tasks/:id/take/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "Take a task from a team queue: the caller becomes an assignee and the task leaves its teams' queues",
        description: `${hidden} Only a member of one of the task's assignee teams (403); a done task: 409.`,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZTask },
      },
    },
    async (request) => takeTask(db, { userId: callerOf(request).id, taskId: request.params.id }),
  );

  app.post(
    '/tasks/:id/remind/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Re-request review: remind the reviewers who have not reacted in the open round (an assignee)',
        description: `${hidden} Not an assignee: 403; not in review: 409; at most once an hour per task: 429 with \`Retry-After\`.`,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZTask },
      },
    },
    async (request) => remindReviewers(db, { userId: callerOf(request).id, taskId: request.params.id }),
  );

  app.post(
    '/tasks/:id/accept/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "Accept in the current round (the task's reviewers, Guests included)",
        description: `${hidden} ${refusals}`,
        security: bearer,
        params: ZIdParams,
        body: ZReview.nullish(),
        response: { 200: ZTask },
      },
    },
    async (request) =>
      actOnTask(db, {
        userId: callerOf(request).id,
        taskId: request.params.id,
        command: { type: 'accept', ...(request.body?.comment !== undefined ? { comment: request.body.comment } : {}) },
      }),
  );

  app.post(
    '/tasks/:id/reject/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "Reject in the current round (the task's reviewers); `return_to` sends predecessor stages back",
        description: `${hidden} ${refusals} With two or more predecessor stages \`return_to\` is required (400); [] means this task to Edit.`,
        security: bearer,
        params: ZIdParams,
        body: ZReject.nullish(),
        response: { 200: ZTask },
      },
    },
    async (request) =>
      actOnTask(db, {
        userId: callerOf(request).id,
        taskId: request.params.id,
        command: {
          type: 'reject',
          ...(request.body?.comment !== undefined ? { comment: request.body.comment } : {}),
          ...(request.body?.return_to !== undefined ? { returnTo: request.body.return_to } : {}),
        },
      }),
  );
};
