import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZIdParams } from '@stageline/shared';
import { ZFieldCreate, ZFieldDefinition, ZFieldList, ZFieldListQuery, ZFieldPatch } from '@stageline/shared/fields';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { createField, listFields, updateField } from './service';

const bearer = [{ bearer: [] }];
const tags = ['fields'];
const hidden = 'A project or field outside the caller’s workspaces answers 404.';
const admins = 'Admins and the owner (others 403).';

/** Custom field definitions of a project (docs/custom-fields.md); values travel on units as `fields`. */
export const fieldsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };

  app.get(
    '/projects/:id/fields/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "A project's custom fields in their order (archived ones with `archived=true`, or all)",
        description: `${hidden} Everyone who sees the project.`,
        security: bearer,
        params: ZIdParams,
        querystring: ZFieldListQuery,
        response: { 200: ZFieldList },
      },
    },
    async (request) =>
      listFields(db, { userId: callerOf(request).id, projectId: request.params.id, archived: request.query.archived }),
  );

  app.post(
    '/projects/:id/fields/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Define a custom field: its key, kind and target never change',
        description: `${hidden} ${admins} The key is unique in the project (400 otherwise).`,
        security: bearer,
        params: ZIdParams,
        body: ZFieldCreate,
        response: { 201: ZFieldDefinition },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await createField(db, { userId: callerOf(request).id, projectId: request.params.id, input: request.body }),
        ),
  );

  app.patch(
    '/fields/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Rename, reorder, change options, default or required, or archive a custom field',
        description: `${hidden} ${admins} Fields are archived, never deleted: their values stay stored.`,
        security: bearer,
        params: ZIdParams,
        body: ZFieldPatch,
        response: { 200: ZFieldDefinition },
      },
    },
    async (request) =>
      updateField(db, { userId: callerOf(request).id, fieldId: request.params.id, patch: request.body }),
  );
};
