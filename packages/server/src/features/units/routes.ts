import { constants } from 'node:zlib';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBatchResult,
  ZBatchUnits,
  ZIdParams,
  ZMatrixPage,
  ZMatrixQueryWithFields,
  ZUnit,
  ZUnitCreate,
  ZUnitList,
  ZUnitListQueryWithFields,
  ZUnitPatch,
  ZWholeMatrix,
  ZWholeMatrixQuery,
  type TWholeMatrixAnswer,
} from '@stageline/shared';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { matrixPage, wholeMatrix } from './matrix';
import { createUnit, createUnitsBatch, deleteUnit, getUnit, listUnits, updateUnit } from './service';

const bearer = [{ bearer: [] }];
const tags = ['units'];
const forbidden = 'Non-members of the workspace get 404; members without the right 403.';

/**
 * How the whole matrix is compressed (docs/decisions.md 124): in one call on the request's own thread,
 * at levels chosen for a large answer (brotli 2, gzip 4: a 10,000-unit matrix in 28 and 38 ms, at most
 * 6 % more bytes than the default levels in a third of their time). Streamed through libuv's threads, each
 * large answer left glibc's per-thread arenas holding the compressor's memory: 40-60 MB more at the
 * built server's peak.
 */
const wholeMatrixCompression = {
  syncThreshold: Number.MAX_SAFE_INTEGER,
  brotliOptions: {
    params: { [constants.BROTLI_PARAM_QUALITY]: 2, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
  },
  zlibOptions: { level: 4 },
};

/** Units of a project and their tasks (docs/rules.md §Web, §Pipelines, §Tasks, §API, §Limits). */
export const unitsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };

  app.post(
    '/units/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Create a unit with one task per stage of its pipeline (Member and above)',
        description: `${forbidden} The pipeline must belong to the project (else 404).`,
        security: bearer,
        body: ZUnitCreate,
        response: { 201: ZUnit },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createUnit(db, { userId: callerOf(request).id, input: request.body })),
  );

  app.post(
    '/units/batch/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Create 1–10,000 units from a name template, with all their tasks, in one transaction',
        description: `${forbidden} Names come from \`batchUnitNames\` of the shared package ({count}, {project}).`,
        security: bearer,
        body: ZBatchUnits,
        response: { 201: ZBatchResult },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createUnitsBatch(db, { userId: callerOf(request).id, input: request.body })),
  );

  app.get(
    '/units/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A page of units (without tasks) of a project, a pipeline, or every visible project; by name',
        description: 'A project or pipeline the caller cannot see answers 404. `next` is the next offset or null.',
        security: bearer,
        querystring: ZUnitListQueryWithFields,
        response: { 200: ZUnitList },
      },
    },
    async (request) => listUnits(db, { userId: callerOf(request).id, query: request.query }),
  );

  app.get(
    '/units/matrix/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "One page of a pipeline's unit × stage matrix, with filters and sort",
        description: forbidden,
        security: bearer,
        querystring: ZMatrixQueryWithFields,
        response: { 200: ZMatrixPage },
      },
    },
    async (request) => matrixPage(db, { userId: callerOf(request).id, query: request.query }),
  );

  app.get(
    '/units/matrix/whole/',
    {
      ...signedIn,
      compress: wholeMatrixCompression,
      schema: {
        tags,
        summary: "A pipeline's whole unit × stage matrix in one compact answer",
        description:
          `${forbidden} Positional: stages once in flow order with their default assignees and teams, units ` +
          'as [id, name] in name order, cells flat as the `cell` field list says (status an index into ' +
          '`statuses`), own assignees, own teams and file counts by task id, people once. Compressed when ' +
          'the client accepts it; an ETag makes an unchanged matrix a 304 (send If-None-Match).',
        security: bearer,
        querystring: ZWholeMatrixQuery,
        response: { 200: ZWholeMatrix, 304: z.null().describe('Not modified') },
      },
      // The database built the JSON text; checking and re-serializing 200,000 cells would cost more than
      // the query (the shape is tested against ZWholeMatrix).
      serializerCompiler: () => (data) => (typeof data === 'string' ? data : JSON.stringify(data)),
    },
    async (request, reply) => {
      const { json, etag } = await wholeMatrix(db, {
        userId: callerOf(request).id,
        pipelineId: request.query.pipeline,
        unitIds: request.query.units,
      });
      void reply.header('etag', etag).header('cache-control', 'private, no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      // Already `ZWholeMatrix` as JSON text (the serializer above passes text through).
      return reply.type('application/json; charset=utf-8').send(json as unknown as TWholeMatrixAnswer);
    },
  );

  app.get(
    '/units/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A unit with its task cells',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZUnit },
      },
    },
    async (request) => getUnit(db, { userId: callerOf(request).id, unitId: request.params.id }),
  );

  app.patch(
    '/units/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Edit name or description (Member and above)',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        body: ZUnitPatch,
        response: { 200: ZUnit },
      },
    },
    async (request) => updateUnit(db, { userId: callerOf(request).id, unitId: request.params.id, patch: request.body }),
  );

  app.delete(
    '/units/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete a unit and its tasks (Admin and above)',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null().describe('Done') },
      },
    },
    async (request, reply) => {
      await deleteUnit(db, { userId: callerOf(request).id, unitId: request.params.id });
      return reply.status(204).send(null);
    },
  );
};
