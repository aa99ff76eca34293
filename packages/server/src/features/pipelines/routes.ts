import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZGraphSave,
  ZGraphSaveResult,
  ZPipelineListQuery,
  ZIdParams,
  ZPipeline,
  ZPipelineCreate,
  ZPipelinePatch,
  ZPipelineSummary,
  ZStage,
  ZStageBulkPatch,
  ZStageUpdate,
} from '@stageline/shared';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { saveGraph } from './graph';
import { createPipeline, deletePipeline, getPipeline, listPipelines, updatePipeline } from './service';
import { bulkUpdateStages, getStage, updateStage } from './stages';

const bearer = [{ bearer: [] }];
const forbidden = 'Non-members of the workspace get 404; members without the right 403.';

/** Pipelines, their graph and their stages (docs/rules.md §Web, §Pipelines, §API). */
export const pipelinesRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };
  const tags = ['pipelines'];

  app.post(
    '/pipelines/',
    {
      ...signedIn,
      schema: {
        tags,
        summary:
          "Create a pipeline with its start and end (Member and above); nodes take the project's review defaults",
        description: forbidden,
        security: bearer,
        body: ZPipelineCreate,
        response: { 201: ZPipeline },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createPipeline(db, { userId: callerOf(request).id, input: request.body })),
  );

  app.get(
    '/pipelines/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Pipelines of a project, or of every project the caller can see; without nodes',
        description:
          'A project the caller cannot see answers 404. `counters=false` leaves out `task_counters`, ' +
          'which are counted over every task of each pipeline (for pickers, which need names and sizes).',
        security: bearer,
        querystring: ZPipelineListQuery,
        response: { 200: z.array(ZPipelineSummary) },
      },
    },
    async (request) =>
      listPipelines(db, {
        userId: callerOf(request).id,
        projectId: request.query.project,
        counters: request.query.counters !== 'false',
      }),
  );

  app.get(
    '/pipelines/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A pipeline with its nodes (start, stages by id, end), edges, counters and version',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZPipeline },
      },
    },
    async (request) => getPipeline(db, { userId: callerOf(request).id, pipelineId: request.params.id }),
  );

  app.patch(
    '/pipelines/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Edit name, description or layout (Member and above)',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        body: ZPipelinePatch,
        response: { 200: ZPipeline },
      },
    },
    async (request) =>
      updatePipeline(db, { userId: callerOf(request).id, pipelineId: request.params.id, patch: request.body }),
  );

  app.delete(
    '/pipelines/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete a pipeline with its stages (Admin and above)',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null().describe('Done') },
      },
    },
    async (request, reply) => {
      await deletePipeline(db, { userId: callerOf(request).id, pipelineId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.put(
    '/pipelines/:id/graph/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Save the whole graph from the version it was loaded at (Member and above)',
        description:
          `${forbidden} 409 \`conflict\` with the current \`version\` when someone saved in between (nothing is ` +
          'written). 400 `pipeline_cycle` on a cycle; 400 `bad_request` with `rule` (a graph error code) for ' +
          'the other graph rules (docs/rules.md §Pipelines). New nodes carry `tmp_id`; `id_map` gives their ' +
          'ids. Start and end keep their names and settings: only their positions are saved.',
        security: bearer,
        params: ZIdParams,
        body: ZGraphSave,
        response: { 200: ZGraphSaveResult },
      },
    },
    async (request) =>
      saveGraph(db, { userId: callerOf(request).id, pipelineId: request.params.id, input: request.body }),
  );

  const stageTags = ['stages'];

  app.get(
    '/stages/:id/',
    {
      ...signedIn,
      schema: {
        tags: stageTags,
        summary: 'A stage',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZStage },
      },
    },
    async (request) => getStage(db, { userId: callerOf(request).id, stageId: request.params.id }),
  );

  app.patch(
    '/stages/:id/',
    {
      ...signedIn,
      schema: {
        tags: stageTags,
        summary: "Edit a stage's settings (Member and above); only the fields given change",
        description:
          `${forbidden} Start and end have no settings (400). Default people must be members of the workspace. ` +
          'Setting days after ready clears the date and the other way round; both at once is a field error. ' +
          'Review rules (docs/review-rules.md): `required_approvals`, `team_rules`, `allow_self_review`, ' +
          '`enforce_review` (only Admins change it), ' +
          '`default_assignee_teams`, `default_reviewer_teams` (teams of the workspace).',
        security: bearer,
        params: ZIdParams,
        body: ZStageUpdate,
        response: { 200: ZStage },
      },
    },
    async (request) =>
      updateStage(db, { userId: callerOf(request).id, stageId: request.params.id, patch: request.body }),
  );

  app.post(
    '/stages/bulk_update/',
    {
      ...signedIn,
      schema: {
        tags: stageTags,
        summary: 'Apply the same changes to several stages of one pipeline (Member and above), in one transaction',
        description: `${forbidden} Stages of several pipelines: 400.`,
        security: bearer,
        body: ZStageBulkPatch,
        response: { 200: z.array(ZStage) },
      },
    },
    async (request) =>
      bulkUpdateStages(db, {
        userId: callerOf(request).id,
        stageIds: request.body.stages,
        patch: request.body.changes,
      }),
  );
};
