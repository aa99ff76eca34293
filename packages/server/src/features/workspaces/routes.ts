// One file for now: every workspace route shares this plugin's guards and schemas; splitting team, invite and settings routes is open in issue 18 item 4.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ZBulkResult,
  ZDelegate,
  ZId,
  ZIdParams,
  ZInvite,
  ZInviteLink,
  ZInvitePreview,
  ZInviteResult,
  ZLinkCreate,
  ZPendingInvite,
  ZRemoveUsers,
  ZSetRoles,
  ZWorkspace,
  ZWorkspaceCreate,
  ZWorkspacePatch,
  ZWorkspaceUser,
} from '@stageline/shared';
import { mailOrigin } from '../../http/mail-origin';
import { callerOf, type AuthContext } from '../auth';
import {
  acceptInvite,
  cancelInvite,
  createLink,
  declineInvite,
  disableLink,
  getLink,
  inviteUsers,
  myInvites,
  previewInvite,
  resendInvite,
} from './invites';
import {
  createWorkspace,
  deleteWorkspace,
  delegateOwnership,
  getWorkspace,
  leaveWorkspace,
  listTeam,
  listWorkspaces,
  removeUsers,
  setRoles,
  updateWorkspace,
} from './service';

const bearer = [{ bearer: [] }];
const tags = ['workspaces'];
const noContent = z.null().describe('Done');
const ZInviteParams = z.object({ id: ZId, inviteId: ZId });
/** A numeric invite id, or the token of an invite link (`/i/…`) or of a personal link (`/p/…`). */
const ZKeyParams = z.object({ key: z.string().min(1).max(128) });
const forbidden = 'Non-members get 404; members without the right 403.';

/**
 * Workspaces, their team, direct invites and the invite link (docs/rules.md §Web, §Roles, §API). Every
 * handler asks the policy module (`policy.ts`) through its service.
 */
export const workspacesRoutes: FastifyPluginAsyncZod<{ ctx: AuthContext }> = async (app, { ctx }) => {
  const { db } = ctx;
  const signedIn = { onRequest: app.authenticate };

  app.post(
    '/workspaces/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Create a workspace; the caller becomes its owner',
        description: 'One user owns at most MAX_OWNED_WORKSPACES workspaces (default 10); one more is a 409.',
        security: bearer,
        body: ZWorkspaceCreate,
        response: { 201: ZWorkspace },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await createWorkspace(db, {
          userId: callerOf(request).id,
          input: request.body,
          maxOwned: ctx.config.maxOwnedWorkspaces,
        }),
      ),
  );

  app.get(
    '/workspaces/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: "The caller's workspaces, with the caller's role",
        security: bearer,
        response: { 200: z.array(ZWorkspace) },
      },
    },
    async (request) => listWorkspaces(db, callerOf(request).id),
  );

  app.get(
    '/workspaces/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'A workspace',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZWorkspace },
      },
    },
    async (request) => getWorkspace(db, { userId: callerOf(request).id, workspaceId: request.params.id }),
  );

  app.patch(
    '/workspaces/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Edit name or description (Admin and above)',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        body: ZWorkspacePatch,
        response: { 200: ZWorkspace },
      },
    },
    async (request) =>
      updateWorkspace(db, { userId: callerOf(request).id, workspaceId: request.params.id, patch: request.body }),
  );

  app.delete(
    '/workspaces/:id/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete the workspace and everything in it (the owner only)',
        description: `${forbidden} The confirmation text is asked by the client.`,
        security: bearer,
        params: ZIdParams,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await deleteWorkspace(db, { userId: callerOf(request).id, workspaceId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/workspaces/:id/users/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The team: members, then pending direct invites (e-mails shown to Admins and the owner)',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 200: z.array(ZWorkspaceUser) },
      },
    },
    async (request) => listTeam(db, { userId: callerOf(request).id, workspaceId: request.params.id }),
  );

  app.post(
    '/workspaces/:id/invite/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Invite usernames or e-mails with a role (Admin and above); each gets an e-mail',
        description:
          `${forbidden} An e-mail without an account is invited as an address: the invite shows once ` +
          'someone verifies that address. Per-entry failures are listed in `errors`.',
        security: bearer,
        params: ZIdParams,
        body: ZInvite,
        response: { 200: ZInviteResult },
      },
    },
    async (request) =>
      inviteUsers(ctx, {
        userId: callerOf(request).id,
        workspaceId: request.params.id,
        users: request.body.users,
        role: request.body.role,
        origin: mailOrigin(ctx.config, request),
        t: request.t,
      }),
  );

  app.post(
    '/workspaces/:id/invites/:inviteId/resend/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'E-mail a pending invite again with a new personal link (Admin and above)',
        description: `${forbidden} At most every 30 seconds per invite (429 with Retry-After).`,
        security: bearer,
        params: ZInviteParams,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await resendInvite(ctx, {
        userId: callerOf(request).id,
        workspaceId: request.params.id,
        inviteId: request.params.inviteId,
        origin: mailOrigin(ctx.config, request),
      });
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/workspaces/:id/invites/:inviteId/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Cancel a pending invite (Admin and above)',
        description: forbidden,
        security: bearer,
        params: ZInviteParams,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await cancelInvite(db, {
        userId: callerOf(request).id,
        workspaceId: request.params.id,
        inviteId: request.params.inviteId,
      });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/workspaces/:id/link/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'The active invite link (`/i/{token}`), or null when there is none (Admin and above)',
        description: `${forbidden} No active link is not an error: the settings screen asks on every visit (decision 195).`,
        security: bearer,
        params: ZIdParams,
        response: { 200: ZInviteLink.nullable() },
      },
    },
    async (request) => getLink(db, { userId: callerOf(request).id, workspaceId: request.params.id }),
  );

  app.post(
    '/workspaces/:id/link/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Generate the invite link with a role, replacing the active one (Admin and above)',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        body: ZLinkCreate,
        response: { 200: ZInviteLink },
      },
    },
    async (request) =>
      createLink(db, { userId: callerOf(request).id, workspaceId: request.params.id, role: request.body.role }),
  );

  app.delete(
    '/workspaces/:id/link/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Disable the invite link (Admin and above); 404 when none is active',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await disableLink(db, { userId: callerOf(request).id, workspaceId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/workspaces/:id/set_roles/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Change the role of selected users (Admin and above); never the owner',
        description: `${forbidden} Partial results: each refused user is listed in \`errors\`.`,
        security: bearer,
        params: ZIdParams,
        body: ZSetRoles,
        response: { 200: ZBulkResult },
      },
    },
    async (request) =>
      setRoles(db, {
        userId: callerOf(request).id,
        workspaceId: request.params.id,
        targets: request.body.users,
        role: request.body.role,
        t: request.t,
      }),
  );

  app.post(
    '/workspaces/:id/remove_users/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Remove selected users (Admin and above); never the owner',
        description: `${forbidden} Partial results: each refused user is listed in \`errors\`.`,
        security: bearer,
        params: ZIdParams,
        body: ZRemoveUsers,
        response: { 200: ZBulkResult },
      },
    },
    async (request) =>
      removeUsers(db, {
        userId: callerOf(request).id,
        workspaceId: request.params.id,
        targets: request.body.users,
        t: request.t,
      }),
  );

  app.post(
    '/workspaces/:id/delegate/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Give ownership to a member who accepted (the owner only); the former owner becomes Admin',
        description: `${forbidden} A member who already owns MAX_OWNED_WORKSPACES workspaces cannot take one more (409).`,
        security: bearer,
        params: ZIdParams,
        body: ZDelegate,
        response: { 200: ZWorkspace },
      },
    },
    async (request) =>
      delegateOwnership(db, {
        userId: callerOf(request).id,
        workspaceId: request.params.id,
        target: request.body.user,
        maxOwned: ctx.config.maxOwnedWorkspaces,
      }),
  );

  app.post(
    '/workspaces/:id/leave/',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Leave the workspace; the owner cannot (400) and must delegate first',
        description: forbidden,
        security: bearer,
        params: ZIdParams,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await leaveWorkspace(db, { userId: callerOf(request).id, workspaceId: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/invites/',
    {
      ...signedIn,
      schema: {
        tags: ['invites'],
        summary: "The caller's pending direct invites (to the account, or to its verified e-mail)",
        security: bearer,
        response: { 200: z.array(ZPendingInvite) },
      },
    },
    async (request) => myInvites(db, callerOf(request).id),
  );

  const keyDescription =
    '`key` is an invite id, an invite-link token (`/i/{token}`) or a personal-link token (`/p/{token}`). ' +
    'A direct invite must be addressed to the caller (account or verified e-mail); otherwise, or when no ' +
    'longer pending or active, 404.';

  app.get(
    '/invites/:key/',
    {
      ...signedIn,
      schema: {
        tags: ['invites'],
        summary: 'What an invite offers, for the accept screen',
        description: keyDescription,
        security: bearer,
        params: ZKeyParams,
        response: { 200: ZInvitePreview },
      },
    },
    async (request) => previewInvite(ctx, { userId: callerOf(request).id, key: request.params.key }),
  );

  app.post(
    '/invites/:key/accept/',
    {
      ...signedIn,
      schema: {
        tags: ['invites'],
        summary: 'Accept: join with the offered role (a member keeps their role); answers the workspace',
        description: keyDescription,
        security: bearer,
        params: ZKeyParams,
        response: { 200: ZWorkspace },
      },
    },
    async (request) => acceptInvite(ctx, { userId: callerOf(request).id, key: request.params.key }),
  );

  app.post(
    '/invites/:key/decline/',
    {
      ...signedIn,
      schema: {
        tags: ['invites'],
        summary: 'Decline a direct invite (for a link, nothing is recorded)',
        description: keyDescription,
        security: bearer,
        params: ZKeyParams,
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await declineInvite(ctx, { userId: callerOf(request).id, key: request.params.key });
      return reply.status(204).send(null);
    },
  );
};
