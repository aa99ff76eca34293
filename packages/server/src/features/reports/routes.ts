import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZBlockingReport,
  ZBurnupReport,
  ZEstimatesReport,
  ZFirstPassReport,
  ZIdParams,
  ZReportQuery,
  ZRoundsReport,
  type TReportQuery,
} from '@stageline/shared';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { blockingReport, burnupReport, estimatesReport, firstPassReport, reportContext, roundsReport } from './service';

const bearer = [{ bearer: [] }];
const tags = ['reports'];
const common =
  'Anyone who may see the project; others get 404, and so does a pipeline or stage of another project. ' +
  'Filters: `pipeline`, `stage`, `person`, and the days `from`…`to` (UTC, at most two years; the last 30 days by default). ' +
  'What each number means: docs/reports.md.';

/** One route per report (docs/decisions/reports.md), all with the same filters. */
export const reportsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };
  const schema = { tags, description: common, security: bearer, params: ZIdParams, querystring: ZReportQuery };
  const context = (request: { params: { id: number }; query: TReportQuery }, userId: number) =>
    reportContext(db, { userId, projectId: request.params.id, query: request.query });

  app.get(
    '/projects/:id/reports/burnup/',
    {
      ...signedIn,
      schema: {
        ...schema,
        summary: 'Burn-up per stage (tasks done and tasks in scope at the end of each day) and throughput per week',
        response: { 200: ZBurnupReport },
      },
    },
    async (request) => burnupReport(db, await context(request, callerOf(request).id)),
  );

  app.get(
    '/projects/:id/reports/first_pass/',
    {
      ...signedIn,
      schema: {
        ...schema,
        summary: 'First-pass approval rate (round 1 accepted) per stage and per person who submitted',
        response: { 200: ZFirstPassReport },
      },
    },
    async (request) => firstPassReport(db, await context(request, callerOf(request).id)),
  );

  app.get(
    '/projects/:id/reports/rounds/',
    {
      ...signedIn,
      schema: {
        ...schema,
        summary: 'Review rounds per finished task (mean, 90th percentile) and time in review and in edit per stage',
        response: { 200: ZRoundsReport },
      },
    },
    async (request) => roundsReport(db, await context(request, callerOf(request).id)),
  );

  app.get(
    '/projects/:id/reports/blocking/',
    {
      ...signedIn,
      schema: {
        ...schema,
        summary: 'Open, overdue and blocked tasks per stage now, and the upstream stages that block them',
        response: { 200: ZBlockingReport },
      },
    },
    async (request) => blockingReport(db, await context(request, callerOf(request).id)),
  );

  app.get(
    '/projects/:id/reports/estimates/',
    {
      ...signedIn,
      schema: {
        ...schema,
        summary:
          'Estimate vs time spent per stage and per person, over the tasks with time logged in the range, and the biggest overruns',
        response: { 200: ZEstimatesReport },
      },
    },
    async (request) => estimatesReport(db, await context(request, callerOf(request).id)),
  );
};
