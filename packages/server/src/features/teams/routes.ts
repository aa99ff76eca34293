import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZIdParams,
  ZTeam,
  ZTeamCreate,
  ZTeamList,
  ZTeamMemberParams,
  ZTeamMembersAdd,
  ZTeamPatch,
} from '@stageline/shared';
import type { Db } from '../../db';
import { callerOf } from '../auth';
import { addTeamMembers, createTeam, deleteTeam, getTeam, listTeams, removeTeamMember, updateTeam } from './service';

const bearer = [{ bearer: [] }];
const tags = ['teams'];
const hidden = 'Non-members of the workspace get 404.';

/** Teams of a workspace and their members (docs/review-rules.md): every role reads, Admins manage. */
export const teamsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const signedIn = { onRequest: app.authenticate };

  app.get(
    '/workspaces/:id/teams/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Teams of a workspace by name, with their members',
        description: hidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZTeamList },
      },
    },
    async (request) => listTeams(db, { userId: callerOf(request).id, workspaceId: request.params.id }),
  );

  app.post(
    '/workspaces/:id/teams/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Create a team (Admin and above)',
        description: `${hidden} Names are unique in a workspace, whatever the case (400 naming \`name\`).`,
        security: bearer,
        params: ZIdParams,
        body: ZTeamCreate,
        response: { 201: ZTeam },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await createTeam(db, { userId: callerOf(request).id, workspaceId: request.params.id, input: request.body }),
        ),
  );

  app.get(
    '/teams/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A team with its members',
        description: hidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZTeam },
      },
    },
    async (request) => getTeam(db, { userId: callerOf(request).id, teamId: request.params.id }),
  );

  app.patch(
    '/teams/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Rename or recolour a team (Admin and above)',
        description: hidden,
        security: bearer,
        params: ZIdParams,
        body: ZTeamPatch,
        response: { 200: ZTeam },
      },
    },
    async (request) => updateTeam(db, { userId: callerOf(request).id, teamId: request.params.id, patch: request.body }),
  );

  app.delete(
    '/teams/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete a team (Admin and above); stages and tasks stop naming it',
        description: hidden,
        security: bearer,
        params: ZIdParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await deleteTeam(db, { userId: callerOf(request).id, teamId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/teams/:id/members/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Add members of the workspace to a team (Admin and above)',
        description: `${hidden} Someone not in the workspace: 400 naming \`users\`.`,
        security: bearer,
        params: ZIdParams,
        body: ZTeamMembersAdd,
        response: { 200: ZTeam },
      },
    },
    async (request) =>
      addTeamMembers(db, { userId: callerOf(request).id, teamId: request.params.id, users: request.body.users }),
  );

  app.delete(
    '/teams/:id/members/:user/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Remove someone from a team (Admin and above)',
        description: hidden,
        security: bearer,
        params: ZTeamMemberParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await removeTeamMember(db, {
        userId: callerOf(request).id,
        teamId: request.params.id,
        memberId: request.params.user,
      });
      return reply.status(204).send(null);
    },
  );
};
