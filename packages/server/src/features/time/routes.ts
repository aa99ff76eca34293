import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParams } from '@stageline/shared';
import {
  ZTimeLog,
  ZTimeLogCreate,
  ZTimeLogExportQuery,
  ZTimeLogList,
  ZTimeLogPatch,
  ZTimeLogQuery,
  ZTimerState,
  ZTimerStop,
  ZTimerStopped,
} from '@stageline/shared/time';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { recordExport } from '../audit';
import { csvFile, sendCsv } from '../csv';
import { deleteTimeLog, exportTimeLogs, listTimeLogs, logTime, updateTimeLog } from './service';
import { currentTimer, discardTimer, startTimer, stopTimer } from './timer';

const bearer = [{ bearer: [] }];
const tags = ['time'];
const hidden = 'A task or log outside the caller’s workspaces answers 404.';
const who =
  'Its assignees and reviewers (directly, by the stage’s defaults or through a team) may, whatever their role, ' +
  'and Members and above on any task (others 403).';
const bad =
  'Refused with 400, nothing stored: hours ≤ 0, over 24 or with more than two decimals, more than 24 h on ' +
  'that day for the person in total, a day before the project or more than a year ahead.';
const scope =
  'In the caller’s workspaces; everyone’s logs where the caller is an Admin or the owner, else only their own. ' +
  '`from`–`to` both included; a workspace or project the caller is not in answers 404.';

/** Estimates live on tasks and stages; these are the time logs, their export and the timer (docs/time.md). */
export const timeRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };

  app.post(
    '/tasks/:id/time/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Log hours on a task for a day; a second log of the same day adds to it',
        description: `${hidden} ${who} ${bad} The task's history records the day's new total.`,
        security: bearer,
        params: ZIdParams,
        body: ZTimeLogCreate,
        response: { 201: ZTimeLog },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await logTime(db, { userId: callerOf(request).id, taskId: request.params.id, input: request.body })),
  );

  app.get(
    '/time/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Time logs by day: filter by workspace, project, person, task (at most 93 days)',
        description: scope,
        security: bearer,
        querystring: ZTimeLogQuery,
        response: { 200: ZTimeLogList },
      },
    },
    async (request) => listTimeLogs(db, { userId: callerOf(request).id, query: request.query }),
  );

  app.get(
    '/time/export.csv',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The same time logs as CSV (at most 366 days)',
        description: `${scope} Columns: date, person, project, unit, stage, task, hours, estimate, note.`,
        security: bearer,
        produces: ['text/csv'],
        querystring: ZTimeLogExportQuery,
        response: { 200: csvFile },
      },
    },
    async (request, reply) => {
      const { delimiter, ...query } = request.query;
      const userId = callerOf(request).id;
      const table = await exportTimeLogs(db, { userId, query });
      await recordExport(db, {
        userId,
        workspaceId: query.workspace,
        details: { what: 'time', file: table.filename, rows: table.rows.length, filters: query },
      });
      return sendCsv(reply, table, delimiter);
    },
  );

  app.patch(
    '/time/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Change the hours of a day (replaced, not added) or the note',
        description: `${hidden} One's own; Admins and the owner anyone's (others 403). ${bad}`,
        security: bearer,
        params: ZIdParams,
        body: ZTimeLogPatch,
        response: { 200: ZTimeLog },
      },
    },
    async (request) =>
      updateTimeLog(db, { userId: callerOf(request).id, logId: request.params.id, patch: request.body }),
  );

  app.delete(
    '/time/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete a log',
        description: `${hidden} One's own; Admins and the owner anyone's (others 403).`,
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await deleteTimeLog(db, { userId: callerOf(request).id, logId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/timer/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "The caller's running timer, or null",
        security: bearer,
        response: { 200: ZTimerState },
      },
    },
    async (request) => currentTimer(db, { userId: callerOf(request).id }),
  );

  app.post(
    '/tasks/:id/timer/start/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Start a timer on a task (one running timer per person: 409 while another runs)',
        description: `${hidden} ${who}`,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZTimerState },
      },
    },
    async (request) => startTimer(db, { userId: callerOf(request).id, taskId: request.params.id }),
  );

  app.post(
    '/timer/stop/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Stop the timer: its time, rounded up to a quarter hour, is logged on the day given (today)',
        description: `409 when no timer runs. ${bad} (then the timer keeps running; \`DELETE timer/\` drops it).`,
        security: bearer,
        body: ZTimerStop.nullish(),
        response: { 201: ZTimerStopped },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await stopTimer(db, {
          userId: callerOf(request).id,
          ...(request.body?.date ? { date: request.body.date } : {}),
          ...(request.body?.note ? { note: request.body.note } : {}),
        }),
      ),
  );

  app.delete(
    '/timer/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Drop the running timer without logging it',
        description: '409 when no timer runs.',
        security: bearer,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await discardTimer(db, { userId: callerOf(request).id });
      return reply.status(204).send(null);
    },
  );
};
