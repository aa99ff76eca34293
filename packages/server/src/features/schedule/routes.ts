import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZIdParams } from '@stageline/shared';
import {
  ZCalendarFeedState,
  ZDaysOff,
  ZDaysOffParams,
  ZForecastQuery,
  ZMilestone,
  ZMilestoneCreate,
  ZMilestoneList,
  ZMilestonePatch,
  ZProjectForecast,
  ZWorkCalendar,
  ZWorkCalendarUpdate,
  ZWorkload,
  ZWorkloadQuery,
} from '@stageline/shared/schedule';
import type { Config } from '../../config';
import type { Db } from '../../db';
import { callerOf, publicOrigin, type TokenKeys } from '../auth';
import { getCalendar, putCalendar, putDaysOff } from './calendar';
import { feedState, renderFeed, renewFeed, revokeFeed } from './feed';
import { projectForecast } from './forecast';
import { createMilestone, deleteMilestone, listMilestones, updateMilestone } from './milestones';
import { workspaceWorkload } from './workload';

const bearer = [{ bearer: [] }];
const tags = ['schedule'];
const hidden = 'A workspace, project or milestone outside the caller’s workspaces answers 404.';
const days = 'Days are `YYYY-MM-DD`; a malformed or impossible day is a 400 naming its field.';

/** The schedule (docs/schedule.md): calendar, days off, milestones, forecast and the iCalendar feed. */
export const scheduleRoutes: FastifyPluginAsyncZod<{ db: Db; keys: TokenKeys; config: Config }> = async (
  app,
  { db, keys, config },
) => {
  const signedIn = { onRequest: app.authenticate };

  app.get(
    '/workspaces/:id/calendar/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The workspace’s working weekdays, holidays and every member’s days off',
        description: hidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZWorkCalendar },
      },
    },
    async (request) => getCalendar(db, { userId: callerOf(request).id, workspaceId: request.params.id }),
  );

  app.put(
    '/workspaces/:id/calendar/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Set the working weekdays (1 Monday … 7 Sunday, at least one) and the holidays (Admins)',
        description: `${hidden} Each list given replaces the old one; a day given twice counts once. ${days}`,
        security: bearer,
        params: ZIdParams,
        body: ZWorkCalendarUpdate,
        response: { 200: ZWorkCalendar },
      },
    },
    async (request) =>
      putCalendar(db, { userId: callerOf(request).id, workspaceId: request.params.id, input: request.body }),
  );

  app.put(
    '/workspaces/:id/days-off/:user/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Replace a person’s days off: one’s own whatever one’s role, anyone’s for Admins',
        description: `${hidden} A person who is not a member answers 404. ${days}`,
        security: bearer,
        params: ZDaysOffParams,
        body: ZDaysOff,
        response: { 200: ZWorkCalendar },
      },
    },
    async (request) =>
      putDaysOff(db, {
        userId: callerOf(request).id,
        workspaceId: request.params.id,
        personId: request.params.user,
        input: request.body,
      }),
  );

  app.get(
    '/workspaces/:id/workload/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Every member × weeks: estimated hours of their open tasks against their capacity',
        description:
          `${hidden} Any member. A task's estimate is shared by its assignees and spread over their working ` +
          'days from its start (or today) to its due date, or over as many working days as it needs; capacity ' +
          'is the hours per day times the person’s working days that week (holidays and days off excluded).',
        security: bearer,
        params: ZIdParams,
        querystring: ZWorkloadQuery,
        response: { 200: ZWorkload },
      },
    },
    async (request) =>
      workspaceWorkload(db, {
        userId: callerOf(request).id,
        workspaceId: request.params.id,
        weeks: request.query.weeks,
        ...(request.query.from ? { from: request.query.from } : {}),
      }),
  );

  app.get(
    '/projects/:id/milestones/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A project’s milestones by date',
        description: hidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZMilestoneList },
      },
    },
    async (request) => listMilestones(db, { userId: callerOf(request).id, projectId: request.params.id }),
  );

  app.post(
    '/projects/:id/milestones/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Make a milestone: a name, a date and optionally the units that must be done by then',
        description: `${hidden} Members and above (others 403). Units outside the project: 400 naming \`units\`. ${days}`,
        security: bearer,
        params: ZIdParams,
        body: ZMilestoneCreate,
        response: { 201: ZMilestone },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await createMilestone(db, {
          userId: callerOf(request).id,
          projectId: request.params.id,
          input: request.body,
        }),
      ),
  );

  app.patch(
    '/milestones/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Change a milestone’s name, date or units (the list given replaces the old one)',
        description: `${hidden} Members and above (others 403). ${days}`,
        security: bearer,
        params: ZIdParams,
        body: ZMilestonePatch,
        response: { 200: ZMilestone },
      },
    },
    async (request) =>
      updateMilestone(db, { userId: callerOf(request).id, milestoneId: request.params.id, patch: request.body }),
  );

  app.delete(
    '/milestones/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete a milestone',
        description: `${hidden} Members and above (others 403).`,
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await deleteMilestone(db, { userId: callerOf(request).id, milestoneId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/projects/:id/forecast/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The forecast along the diagram: each unit’s earliest finish, late units and why, milestone risk',
        description:
          `${hidden} Each open task starts the working day after the last task of its input stages finishes ` +
          '(or today, or its own planned start if later) and lasts its own dates’ working days, else its estimate ' +
          'in working days, else its stage’s default duration, else one day. `critical_path` is the chain of stages ' +
          'that decides the unit’s finish; `waiting_on` the stage at the head of its late task’s chain. A milestone ' +
          'is at risk when one of its units (none named: every unit) finishes after its date.',
        security: bearer,
        params: ZIdParams,
        querystring: ZForecastQuery,
        response: { 200: ZProjectForecast },
      },
    },
    async (request) =>
      projectForecast(db, {
        userId: callerOf(request).id,
        projectId: request.params.id,
        ...(request.query.pipeline ? { pipelineId: request.query.pipeline } : {}),
      }),
  );

  app.get(
    '/me/calendar-feed/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Whether the caller has an iCalendar feed (its URL is shown only when made)',
        security: bearer,
        response: { 200: ZCalendarFeedState },
      },
    },
    async (request) => feedState(db, callerOf(request).id),
  );

  app.post(
    '/me/calendar-feed/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Make a new secret iCalendar feed URL; the previous one stops working',
        security: bearer,
        response: { 201: ZCalendarFeedState },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await renewFeed(db, keys, { userId: callerOf(request).id, origin: publicOrigin(config, request) })),
  );

  app.delete(
    '/me/calendar-feed/',
    {
      ...signedIn,
      schema: { tags, summary: 'Revoke the iCalendar feed', security: bearer, response: { 204: z.null() } },
    },
    async (request, reply) => {
      await revokeFeed(db, callerOf(request).id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/calendar/:token.ics',
    {
      schema: {
        tags,
        summary: 'The iCalendar feed of a secret URL: due dates of the person’s open tasks, and milestones',
        description:
          'No sign-in: the URL is the secret. An unknown or revoked token answers the same bare 404 as any unknown address.',
        produces: ['text/calendar'],
        params: z.object({ token: z.string().max(200) }),
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const text = await renderFeed(db, keys, request.params.token);
      return reply.type('text/calendar; charset=utf-8').header('cache-control', 'private, max-age=300').send(text);
    },
  );
};
