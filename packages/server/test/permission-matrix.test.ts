// One file on purpose: every route of the app is one row of the same table, so a route left out fails one test.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db';
import { relaxedLimits } from './accounts';
import { buildTestApp, type TestApp } from './helpers';
import { buildPipeline, buildProject } from './pipelines';
import { addMember, buildUser, buildWorkspace, type TestUser } from './workspaces';

/**
 * The permission matrix (issue 4): every route the app registers × every kind of caller, with the
 * status each must answer. A route without an entry fails the first test, so the table grows with
 * every feature. Each cell runs on a fresh workspace (owner, admin, member, guest; an outsider who
 * is in none of it), with a pending invite and an active invite link, so cells cannot disturb each
 * other. Bodies are valid: a cell measures who may call, not what they send.
 */

const callers = ['signed out', 'non-member', 'guest', 'member', 'admin', 'owner'] as const;
type Caller = (typeof callers)[number];
/** Expected status per caller, in the order of `callers`. */
type Row = readonly [number, number, number, number, number, number];

type Fixture = {
  workspace: number;
  caller: TestUser | null;
  users: Record<'owner' | 'admin' | 'member' | 'guest' | 'outsider' | 'invitee', TestUser>;
  inviteId: number;
  linkToken: string;
  /** A project of the workspace with one pipeline: start → stage → end, not yet saved (version 0). */
  project: number;
  pipeline: { id: number; root: number; end: number; stage: number };
  /** A unit of the pipeline; tasks of three units at its stage: in To do, in progress, and in review
   * (round 1 open) with every role of the workspace as its own reviewers. */
  unit: number;
  tasks: { todo: number; inProgress: number; review: number; queue: number; remind: number };
  /** A team of the workspace (guest, member, admin, owner); the `queue` task is assigned to it, the
   * `remind` task is in review with the member as its assignee and the admin as its reviewer. */
  team: number;
  /** A comment of the member on the review task, and a notification of the member. */
  comment: number;
  notification: number;
  /** A webhook of the workspace (to a port nobody listens on) with one delivery in its log. */
  webhook: number;
  delivery: number;
  /** A view of the project shared by the member. */
  view: number;
  /** A file of the member on the review task (with a thumbnail). */
  attachment: number;
  /** A time log of the member on the to-do task, on a day ahead (a different one per scene). */
  timeLog: number;
  /** A custom field (text) of the project. */
  field: number;
  /** A milestone of the project (docs/schedule.md). */
  milestone: number;
  /** A review session of the project holding the review task (`item`), and a client link of it. */
  review: { session: number; item: number; link: number; token: string };
};
type Call = { url: string; payload?: object | Buffer; headers?: Record<string, string> };
/** `stream`: the answer never ends (server-sent events): only its status is read. */
type Entry = { expect: Row; call: (f: Fixture) => Call; stream?: boolean };

const fresh = () => randomBytes(6).toString('hex');
/** Same call whoever makes it. */
const at = (url: string, payload?: object) => () => ({ url, payload });
/** A call on the cell's workspace: `:id` is replaced. */
const ws = (path: string, payload?: (f: Fixture) => object) => (f: Fixture) => ({
  url: `/api/workspaces/${f.workspace}/${path}`,
  payload: payload?.(f),
});
const self = (f: Fixture) => f.caller?.id ?? 1;
const today = new Date().toISOString().slice(0, 10);
/** A day 1–365 days ahead: each scene's time log gets its own, so no person's day fills up. */
const someDayAhead = () =>
  new Date(Date.now() + (1 + Math.floor(Math.random() * 365)) * 86_400_000).toISOString().slice(0, 10);

/** A multipart body of text fields and a small CSV file. */
function csvUpload(fields: Record<string, number>) {
  const boundary = `----matrix${fresh()}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="units.csv"\r\n\r\nname\r\nMatrix\r\n`;
  return {
    payload: Buffer.from(`${parts.join('')}${file}--${boundary}--\r\n`),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A multipart body of text fields, then a small text file in field `file`. */
function fileUpload(fields: Record<string, number>) {
  const { payload, headers } = csvUpload(fields);
  return { payload: Buffer.from(payload.toString().replace('units.csv', 'notes.txt')), headers };
}

//                        signed out, non-member, guest, member, admin, owner
const publicAll = (s: number): Row => [s, s, s, s, s, s];
const signedIn = (s: number): Row => [401, s, s, s, s, s];

/** The table. Keys are `METHOD url` as Fastify registers them. */
const table: Record<string, Entry> = {
  // System and docs: public.
  'GET /api/health/': { expect: publicAll(200), call: at('/api/health/') },
  'GET /api/config/': { expect: publicAll(200), call: at('/api/config/') },
  'GET /api/openapi.json': { expect: publicAll(200), call: at('/api/openapi.json') },
  // Decided by where the call comes from, not by role: open on this machine (where inject calls
  // from), elsewhere only with METRICS_TOKEN (src/features/metrics/metrics.test.ts).
  'GET /api/metrics': { expect: publicAll(200), call: at('/api/metrics') },
  'GET /api/docs': { expect: publicAll(200), call: at('/api/docs') },
  'HEAD /api/docs/': { expect: publicAll(200), call: at('/api/docs/') },
  'GET /api/docs/static/index.html': { expect: publicAll(302), call: at('/api/docs/static/index.html') },
  'GET /api/docs/static/swagger-initializer.js': {
    expect: publicAll(200),
    call: at('/api/docs/static/swagger-initializer.js'),
  },
  'GET /api/docs/json': { expect: publicAll(200), call: at('/api/docs/json') },
  'GET /api/docs/yaml': { expect: publicAll(200), call: at('/api/docs/yaml') },
  'GET /api/docs/static/*': { expect: publicAll(200), call: at('/api/docs/static/swagger-ui.css') },
  'GET /api/dev/outbox/': { expect: publicAll(200), call: at('/api/dev/outbox/') },

  // Sign-up and sign-in: public; bodies that cannot succeed, so no cell changes an account.
  'POST /api/users/register/': { expect: publicAll(400), call: at('/api/users/register/', { username: 'x' }) },
  'POST /api/users/login/': {
    expect: publicAll(400),
    call: at('/api/users/login/', { username: 'nobody-here', password: 'wrong password' }),
  },
  'POST /api/otp/check/': {
    expect: publicAll(400),
    call: at('/api/otp/check/', { code: '000000', ephemeral_token: 'bad' }),
  },
  'POST /api/otp/send/': { expect: publicAll(400), call: at('/api/otp/send/', { ephemeral_token: 'bad' }) },
  'POST /api/token/refresh/': { expect: publicAll(401), call: at('/api/token/refresh/', { refresh: 'bad' }) },
  'POST /api/users/logout/': { expect: publicAll(204), call: at('/api/users/logout/', { refresh: 'bad' }) },
  // A digest's unsubscribe link: no sign-in (the token is the proof); a bad token is 400 for anyone.
  'POST /api/users/unsubscribe/': {
    expect: publicAll(400),
    call: at('/api/users/unsubscribe/', { token: 'not-a-real-token' }),
  },
  'POST /api/users/password_reset/': {
    expect: publicAll(200),
    call: at('/api/users/password_reset/', { email: 'nobody@example.com' }),
  },
  'POST /api/users/password_reset/validate_token/': {
    expect: publicAll(400),
    call: at('/api/users/password_reset/validate_token/', { token: 'bad', email: 'nobody@example.com' }),
  },
  'POST /api/users/password_reset/confirm/': {
    expect: publicAll(400),
    call: at('/api/users/password_reset/confirm/', {
      token: 'bad',
      email: 'nobody@example.com',
      password: 'long enough password',
    }),
  },

  // The signed-in user's own account: any signed-in caller, whatever their workspace role.
  'GET /api/users/me/': { expect: signedIn(200), call: at('/api/users/me/') },
  'PATCH /api/users/:id/': {
    expect: signedIn(200),
    call: (f) => ({ url: `/api/users/${self(f)}/`, payload: { first_name: 'Matrix' } }),
  },
  'POST /api/users/me/password/': {
    expect: signedIn(400),
    call: at('/api/users/me/password/', { code: '000000', password: 'long enough password' }),
  },
  'POST /api/users/me/email/': {
    expect: signedIn(400),
    call: at('/api/users/me/email/', { email: 'new@example.com', code: '000000' }),
  },
  'POST /api/users/me/email/confirm/': {
    expect: signedIn(400),
    call: at('/api/users/me/email/confirm/', { token: 'x' }),
  },
  'POST /api/users/me/two_factor/': {
    expect: signedIn(400),
    call: at('/api/users/me/two_factor/', { enabled: true, code: '000000' }),
  },
  'GET /api/users/me/sessions/': { expect: signedIn(200), call: at('/api/users/me/sessions/') },
  // Personal API tokens: one's own, any signed-in caller (api-tokens.test.ts: never with a token).
  'POST /api/users/me/tokens/': {
    expect: signedIn(201),
    call: at('/api/users/me/tokens/', { name: 'Matrix', scope: 'read' }),
  },
  'GET /api/users/me/tokens/': { expect: signedIn(200), call: at('/api/users/me/tokens/') },
  'DELETE /api/users/me/tokens/:id/': { expect: signedIn(404), call: at('/api/users/me/tokens/2147483647/') },
  'DELETE /api/users/me/sessions/:id/': { expect: signedIn(404), call: at('/api/users/me/sessions/2147483647/') },
  'POST /api/users/me/sessions/end_others/': {
    expect: signedIn(200),
    call: at('/api/users/me/sessions/end_others/', {}),
  },
  'POST /api/users/me/avatar/': { expect: signedIn(415), call: at('/api/users/me/avatar/', { file: 'x' }) },
  'DELETE /api/users/me/avatar/': { expect: signedIn(200), call: at('/api/users/me/avatar/') },
  'GET /api/users/:id/avatar/': {
    expect: publicAll(404),
    call: (f) => ({ url: `/api/users/${f.users.owner.id}/avatar/` }),
  },

  // Sign-in with other services (none configured in tests: unknown provider).
  'GET /api/oauth/providers/': { expect: publicAll(200), call: at('/api/oauth/providers/') },
  'GET /api/oauth/login/:provider/start/': { expect: publicAll(404), call: at('/api/oauth/login/nope/start/') },
  'GET /api/oauth/login/:provider/': { expect: publicAll(404), call: at('/api/oauth/login/nope/?code=x&state=y') },
  'POST /api/oauth/link/:provider/': { expect: signedIn(404), call: at('/api/oauth/link/nope/', {}) },
  'DELETE /api/users/me/oauth/:provider/': { expect: signedIn(404), call: at('/api/users/me/oauth/nope/') },

  // Workspaces (docs/rules.md §Roles): non-members 404, members without the right 403.
  'POST /api/workspaces/': { expect: signedIn(201), call: at('/api/workspaces/', { name: 'Matrix' }) },
  'GET /api/workspaces/': { expect: signedIn(200), call: at('/api/workspaces/') },
  'GET /api/workspaces/:id/': { expect: [401, 404, 200, 200, 200, 200], call: ws('') },
  'PATCH /api/workspaces/:id/': { expect: [401, 404, 403, 403, 200, 200], call: ws('', () => ({ name: 'Renamed' })) },
  'DELETE /api/workspaces/:id/': { expect: [401, 404, 403, 403, 403, 204], call: ws('') },
  'GET /api/workspaces/:id/users/': { expect: [401, 404, 200, 200, 200, 200], call: ws('users/') },
  'POST /api/workspaces/:id/invite/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: ws('invite/', () => ({ users: [`${fresh()}@example.com`], role: 'member' })),
  },
  'POST /api/workspaces/:id/invites/:inviteId/resend/': {
    expect: [401, 404, 403, 403, 204, 204],
    call: (f) => ({ url: `/api/workspaces/${f.workspace}/invites/${f.inviteId}/resend/` }),
  },
  'DELETE /api/workspaces/:id/invites/:inviteId/': {
    expect: [401, 404, 403, 403, 204, 204],
    call: (f) => ({ url: `/api/workspaces/${f.workspace}/invites/${f.inviteId}/` }),
  },
  'GET /api/workspaces/:id/link/': { expect: [401, 404, 403, 403, 200, 200], call: ws('link/') },
  'POST /api/workspaces/:id/link/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: ws('link/', () => ({ role: 'guest' })),
  },
  'DELETE /api/workspaces/:id/link/': { expect: [401, 404, 403, 403, 204, 204], call: ws('link/') },
  'GET /api/workspaces/:id/file_types/': { expect: [401, 404, 200, 200, 200, 200], call: ws('file_types/') },
  'PUT /api/workspaces/:id/file_types/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: ws('file_types/', () => ({ allowed: ['media'] })),
  },
  'POST /api/workspaces/:id/set_roles/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: ws('set_roles/', (f) => ({ users: [f.users.guest.id], role: 'member' })),
  },
  'POST /api/workspaces/:id/remove_users/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: ws('remove_users/', (f) => ({ users: [f.users.guest.id] })),
  },
  'POST /api/workspaces/:id/delegate/': {
    expect: [401, 404, 403, 403, 403, 200],
    call: ws('delegate/', (f) => ({ user: f.users.member.id })),
  },
  'POST /api/workspaces/:id/leave/': { expect: [401, 404, 204, 204, 204, 400], call: ws('leave/') },

  // The command palette's search: any signed-in caller, over their own workspaces only.
  'GET /api/search/': { expect: signedIn(200), call: at('/api/search/?q=matrix') },

  // Saved views: anyone who sees the project saves their own; a shared one is changed by its author or Admin+.
  'POST /api/views/': {
    expect: [401, 404, 201, 201, 201, 201],
    call: (f) => ({ url: '/api/views/', payload: { project: f.project, name: 'Mine', filters: { status: 'review' } } }),
  },
  'GET /api/views/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/views/?project=${f.project}` }),
  },
  'PATCH /api/views/:id/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/views/${f.view}/`, payload: { name: 'Renamed' } }),
  },
  'DELETE /api/views/:id/': {
    expect: [401, 404, 403, 204, 204, 204],
    call: (f) => ({ url: `/api/views/${f.view}/` }),
  },

  // Webhooks: Admin and above; Members and Guests 403, non-members 404.
  'POST /api/workspaces/:id/webhooks/': {
    expect: [401, 404, 403, 403, 201, 201],
    call: ws('webhooks/', () => ({ url: 'http://127.0.0.1:9/other', events: ['task.created'] })),
  },
  'GET /api/workspaces/:id/webhooks/': { expect: [401, 404, 403, 403, 200, 200], call: ws('webhooks/') },
  'GET /api/workspaces/:id/audit/': { expect: [401, 404, 403, 403, 200, 200], call: ws('audit/') },
  'GET /api/workspaces/:id/audit/export.csv': { expect: [401, 404, 403, 403, 200, 200], call: ws('audit/export.csv') },
  'GET /api/webhooks/:id/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: (f) => ({ url: `/api/webhooks/${f.webhook}/` }),
  },
  'PATCH /api/webhooks/:id/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: (f) => ({ url: `/api/webhooks/${f.webhook}/`, payload: { events: ['unit.deleted'] } }),
  },
  'DELETE /api/webhooks/:id/': {
    expect: [401, 404, 403, 403, 204, 204],
    call: (f) => ({ url: `/api/webhooks/${f.webhook}/` }),
  },
  'GET /api/webhooks/:id/deliveries/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: (f) => ({ url: `/api/webhooks/${f.webhook}/deliveries/` }),
  },
  'POST /api/webhooks/:id/deliveries/:delivery/redeliver/': {
    expect: [401, 404, 403, 403, 201, 201],
    call: (f) => ({ url: `/api/webhooks/${f.webhook}/deliveries/${f.delivery}/redeliver/` }),
  },
  'POST /api/webhooks/:id/ping/': {
    expect: [401, 404, 403, 403, 201, 201],
    call: (f) => ({ url: `/api/webhooks/${f.webhook}/ping/` }),
  },
  'POST /api/webhooks/:id/rotate-secret/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: (f) => ({ url: `/api/webhooks/${f.webhook}/rotate-secret/` }),
  },
  'POST /api/webhooks/:id/resume/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: (f) => ({ url: `/api/webhooks/${f.webhook}/resume/` }),
  },

  // Invites: the caller's own; a link's token works for anyone signed in (a member keeps their role).
  'GET /api/invites/': { expect: signedIn(200), call: at('/api/invites/') },
  'GET /api/invites/:key/': { expect: signedIn(200), call: (f) => ({ url: `/api/invites/${f.linkToken}/` }) },
  'POST /api/invites/:key/accept/': {
    expect: signedIn(200),
    call: (f) => ({ url: `/api/invites/${f.linkToken}/accept/` }),
  },
  'POST /api/invites/:key/decline/': {
    expect: signedIn(204),
    call: (f) => ({ url: `/api/invites/${f.linkToken}/decline/` }),
  },

  // Projects, pipelines and stages: Guests read, Members create and edit, Admins delete.
  'POST /api/projects/': {
    expect: [401, 404, 403, 201, 201, 201],
    call: (f) => ({ url: '/api/projects/', payload: { workspace: f.workspace, name: 'Matrix' } }),
  },
  'GET /api/projects/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/?workspace=${f.workspace}` }),
  },
  'GET /api/projects/:id/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/${f.project}/` }),
  },
  'GET /api/projects/:id/workload/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/${f.project}/workload/` }),
  },
  'GET /api/projects/:id/reports/burnup/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/${f.project}/reports/burnup/` }),
  },
  'GET /api/projects/:id/reports/first_pass/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/${f.project}/reports/first_pass/` }),
  },
  'GET /api/projects/:id/reports/rounds/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/${f.project}/reports/rounds/` }),
  },
  'GET /api/projects/:id/reports/blocking/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/${f.project}/reports/blocking/` }),
  },
  'GET /api/projects/:id/reports/estimates/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/${f.project}/reports/estimates/` }),
  },
  'PATCH /api/projects/:id/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/${f.project}/`, payload: { name: 'Renamed' } }),
  },
  'DELETE /api/projects/:id/': {
    expect: [401, 404, 403, 403, 204, 204],
    call: (f) => ({ url: `/api/projects/${f.project}/` }),
  },
  'POST /api/pipelines/': {
    expect: [401, 404, 403, 201, 201, 201],
    call: (f) => ({ url: '/api/pipelines/', payload: { project: f.project, name: 'Matrix' } }),
  },
  'GET /api/pipelines/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/pipelines/?project=${f.project}` }),
  },
  'GET /api/pipelines/:id/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/pipelines/${f.pipeline.id}/` }),
  },
  'PATCH /api/pipelines/:id/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/pipelines/${f.pipeline.id}/`, payload: { layout: 'horizontal' } }),
  },
  'DELETE /api/pipelines/:id/': {
    expect: [401, 404, 403, 403, 204, 204],
    call: (f) => ({ url: `/api/pipelines/${f.pipeline.id}/` }),
  },
  'PUT /api/pipelines/:id/graph/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: ({ pipeline: p }) => ({
      url: `/api/pipelines/${p.id}/graph/`,
      payload: {
        version: 0,
        nodes: [
          { id: p.root, kind: 'root', name: 'Start', x: 0, y: 0 },
          { id: p.stage, kind: 'stage', name: 'Stage', x: 0, y: 100 },
          { tmp_id: 'new', kind: 'stage', name: 'New', x: 100, y: 100 },
          { id: p.end, kind: 'end', name: 'End', x: 0, y: 200 },
        ],
        edges: [
          { source: p.root, target: p.stage },
          { source: p.stage, target: 'new' },
          { source: 'new', target: p.end },
        ],
      },
    }),
  },
  'GET /api/stages/:id/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/stages/${f.pipeline.stage}/` }),
  },
  'PATCH /api/stages/:id/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/stages/${f.pipeline.stage}/`, payload: { name: 'Renamed', review_mode: 'any' } }),
  },
  // Units and tasks: Guests read and review where they are reviewers; Members create, edit, work and
  // set any status; Admins delete units.
  'POST /api/units/': {
    expect: [401, 404, 403, 201, 201, 201],
    call: (f) => ({ url: '/api/units/', payload: { project: f.project, pipeline: f.pipeline.id, name: 'Matrix' } }),
  },
  'POST /api/units/batch/': {
    expect: [401, 404, 403, 201, 201, 201],
    call: (f) => ({
      url: '/api/units/batch/',
      payload: { project: f.project, pipeline: f.pipeline.id, template: 'M{count}', count: 3, start: 1, step: 1 },
    }),
  },
  'GET /api/units/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/units/?project=${f.project}` }),
  },
  'GET /api/units/matrix/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/units/matrix/?pipeline=${f.pipeline.id}&assignee=me` }),
  },
  'GET /api/units/matrix/whole/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/units/matrix/whole/?pipeline=${f.pipeline.id}` }),
  },
  // CSV (issue 15): exports read like the matrix and task lists; an import creates like units/batch/.
  'GET /api/pipelines/:id/export.csv': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/pipelines/${f.pipeline.id}/export.csv` }),
  },
  'GET /api/tasks/export.csv': { expect: signedIn(200), call: at('/api/tasks/export.csv?assignee=me') },
  'POST /api/units/import/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: '/api/units/import/', ...csvUpload({ project: f.project, pipeline: f.pipeline.id }) }),
  },
  'GET /api/units/:id/': { expect: [401, 404, 200, 200, 200, 200], call: (f) => ({ url: `/api/units/${f.unit}/` }) },
  'GET /api/units/:id/history/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/units/${f.unit}/history/` }),
  },
  'GET /api/tasks/:id/history/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/tasks/${f.tasks.review}/history/?only=status` }),
  },
  'PATCH /api/units/:id/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/units/${f.unit}/`, payload: { name: 'Renamed' } }),
  },
  // Custom fields (docs/custom-fields.md): everyone who sees the project reads them; Admins define them.
  'GET /api/projects/:id/fields/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/${f.project}/fields/` }),
  },
  'POST /api/projects/:id/fields/': {
    expect: [401, 404, 403, 403, 201, 201],
    call: (f) => ({
      url: `/api/projects/${f.project}/fields/`,
      payload: { key: `k${fresh()}`, name: 'K', kind: 'text' },
    }),
  },
  'PATCH /api/fields/:id/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: (f) => ({ url: `/api/fields/${f.field}/`, payload: { name: 'Renamed' } }),
  },
  'DELETE /api/units/:id/': { expect: [401, 404, 403, 403, 204, 204], call: (f) => ({ url: `/api/units/${f.unit}/` }) },
  'GET /api/tasks/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/tasks/?pipeline=${f.pipeline.id}&reviewer=me` }),
  },
  'GET /api/tasks/:id/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/tasks/${f.tasks.review}/` }),
  },
  'PATCH /api/tasks/:id/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/tasks/${f.tasks.todo}/`, payload: { status: 'done', assignees: [f.users.guest.id] } }),
  },
  'POST /api/tasks/:id/start/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/tasks/${f.tasks.todo}/start/` }),
  },
  'POST /api/tasks/:id/submit/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/tasks/${f.tasks.inProgress}/submit/` }),
  },
  'POST /api/tasks/:id/accept/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/tasks/${f.tasks.review}/accept/`, payload: { comment: 'Good' } }),
  },
  'POST /api/tasks/:id/reject/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/tasks/${f.tasks.review}/reject/`, payload: { comment: 'Again' } }),
  },
  // Review sessions (docs/review-sessions.md): Guests play them and decide where they review; Members
  // build and change them; Admins share them with clients (Members where the workspace allows).
  'POST /api/review_sessions/': {
    expect: [401, 404, 403, 201, 201, 201],
    call: (f) => ({
      url: '/api/review_sessions/',
      payload: { project: f.project, name: 'Dailies', source: { kind: 'tasks', tasks: [f.tasks.review] } },
    }),
  },
  'GET /api/review_sessions/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/review_sessions/?project=${f.project}` }),
  },
  'GET /api/review_sessions/:id/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/review_sessions/${f.review.session}/` }),
  },
  'PATCH /api/review_sessions/:id/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/review_sessions/${f.review.session}/`, payload: { name: 'Renamed' } }),
  },
  'DELETE /api/review_sessions/:id/': {
    expect: [401, 404, 403, 204, 204, 204],
    call: (f) => ({ url: `/api/review_sessions/${f.review.session}/` }),
  },
  'POST /api/review_sessions/:id/items/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({
      url: `/api/review_sessions/${f.review.session}/items/`,
      payload: { source: { kind: 'tasks', tasks: [f.tasks.todo] } },
    }),
  },
  'DELETE /api/review_sessions/:id/items/:item/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/review_sessions/${f.review.session}/items/${f.review.item}/` }),
  },
  'POST /api/review_sessions/:id/items/:item/decide/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({
      url: `/api/review_sessions/${f.review.session}/items/${f.review.item}/decide/`,
      payload: { verdict: 'accept' },
    }),
  },
  'POST /api/review_sessions/:id/links/': {
    expect: [401, 404, 403, 403, 201, 201],
    call: (f) => ({ url: `/api/review_sessions/${f.review.session}/links/`, payload: { may_decide: true } }),
  },
  'GET /api/review_sessions/:id/links/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: (f) => ({ url: `/api/review_sessions/${f.review.session}/links/` }),
  },
  'POST /api/review_links/:id/revoke/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: (f) => ({ url: `/api/review_links/${f.review.link}/revoke/` }),
  },
  // Drawings go with a comment: its author draws (the member wrote the fixture's comment).
  'POST /api/drawings/': {
    expect: [401, 404, 403, 201, 403, 403],
    call: (f) => ({
      url: '/api/drawings/',
      payload: {
        comment: f.comment,
        file: f.attachment,
        shapes: [{ tool: 'rect', from: [0.1, 0.1], to: [0.5, 0.5], color: '#ff0000', width: 2 }],
      },
    }),
  },
  'GET /api/drawings/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/drawings/?task=${f.tasks.review}` }),
  },
  'GET /api/tasks/:id/client_feedback/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/tasks/${f.tasks.review}/client_feedback/` }),
  },
  // A client link's own routes: no account; the token opens it, and the other calls need the access
  // token that opening answers (review-sessions.test.ts), so a bearer of any role gets 401 there.
  'GET /api/client/:token/': { expect: publicAll(200), call: (f) => ({ url: `/api/client/${f.review.token}/` }) },
  'POST /api/client/:token/open/': {
    expect: publicAll(200),
    call: (f) => ({ url: `/api/client/${f.review.token}/open/`, payload: {} }),
  },
  'GET /api/client/:token/session/': {
    expect: publicAll(401),
    call: (f) => ({ url: `/api/client/${f.review.token}/session/` }),
  },
  'GET /api/client/:token/files/:file/content/': {
    expect: publicAll(401),
    call: (f) => ({ url: `/api/client/${f.review.token}/files/${f.attachment}/content/` }),
  },
  'POST /api/client/:token/items/:item/feedback/': {
    expect: publicAll(401),
    call: (f) => ({
      url: `/api/client/${f.review.token}/items/${f.review.item}/feedback/`,
      payload: { name: 'Client', kind: 'approve' },
    }),
  },
  // Comments: every member reads and writes; the author edits; the author or an Admin deletes.
  'POST /api/comments/': {
    expect: [401, 404, 201, 201, 201, 201],
    call: (f) => ({ url: '/api/comments/', payload: { task: f.tasks.review, text: 'Matrix @owner' } }),
  },
  'GET /api/comments/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/comments/?unit=${f.unit}` }),
  },
  'PATCH /api/comments/:id/': {
    expect: [401, 404, 403, 200, 403, 403],
    call: (f) => ({ url: `/api/comments/${f.comment}/`, payload: { text: 'Edited' } }),
  },
  // Files (docs/files.md): as comments; deleting is the author's (the member) or Admin+.
  'POST /api/attachments/': {
    expect: [401, 404, 201, 201, 201, 201],
    call: (f) => ({ url: '/api/attachments/', ...fileUpload({ task: f.tasks.review }) }),
  },
  'GET /api/attachments/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/attachments/?task=${f.tasks.review}` }),
  },
  'GET /api/attachments/:id/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/attachments/${f.attachment}/` }),
  },
  'GET /api/attachments/:id/content/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/attachments/${f.attachment}/content/` }),
  },
  'GET /api/attachments/:id/thumbnail/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/attachments/${f.attachment}/thumbnail/` }),
  },
  'DELETE /api/attachments/:id/': {
    expect: [401, 404, 403, 204, 204, 204],
    call: (f) => ({ url: `/api/attachments/${f.attachment}/` }),
  },
  'DELETE /api/comments/:id/': {
    expect: [401, 404, 403, 204, 204, 204],
    call: (f) => ({ url: `/api/comments/${f.comment}/` }),
  },
  // Notifications: the caller's own only (another's is 404, whatever the role).
  'GET /api/notifications/': { expect: signedIn(200), call: at('/api/notifications/?read=false') },
  'POST /api/notifications/read_all/': { expect: signedIn(204), call: at('/api/notifications/read_all/') },
  'POST /api/notifications/:id/read/': {
    expect: [401, 404, 404, 204, 404, 404],
    call: (f) => ({ url: `/api/notifications/${f.notification}/read/` }),
  },
  'POST /api/notifications/:id/unread/': {
    expect: [401, 404, 404, 204, 404, 404],
    call: (f) => ({ url: `/api/notifications/${f.notification}/unread/` }),
  },
  // The live stream: any signed-in user gets their own events.
  'GET /api/events/': { expect: signedIn(200), call: at('/api/events/'), stream: true },
  // Teams (docs/review-rules.md): everyone reads, Admins manage; "Take" is for the team's members,
  // reminding the reviewers for the task's assignees.
  'GET /api/workspaces/:id/teams/': { expect: [401, 404, 200, 200, 200, 200], call: ws('teams/') },
  'POST /api/workspaces/:id/teams/': {
    expect: [401, 404, 403, 403, 201, 201],
    call: ws('teams/', () => ({ name: `Team ${fresh()}`, color: '#12ab34' })),
  },
  'GET /api/teams/:id/': { expect: [401, 404, 200, 200, 200, 200], call: (f) => ({ url: `/api/teams/${f.team}/` }) },
  'PATCH /api/teams/:id/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: (f) => ({ url: `/api/teams/${f.team}/`, payload: { name: `Renamed ${fresh()}` } }),
  },
  'DELETE /api/teams/:id/': {
    expect: [401, 404, 403, 403, 204, 204],
    call: (f) => ({ url: `/api/teams/${f.team}/` }),
  },
  'POST /api/teams/:id/members/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: (f) => ({ url: `/api/teams/${f.team}/members/`, payload: { users: [f.users.guest.id] } }),
  },
  'DELETE /api/teams/:id/members/:user/': {
    expect: [401, 404, 403, 403, 204, 204],
    call: (f) => ({ url: `/api/teams/${f.team}/members/${f.users.guest.id}/` }),
  },
  'POST /api/tasks/:id/take/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/tasks/${f.tasks.queue}/take/` }),
  },
  'POST /api/tasks/:id/remind/': {
    expect: [401, 404, 403, 200, 403, 403],
    call: (f) => ({ url: `/api/tasks/${f.tasks.remind}/remind/` }),
  },
  // Time (docs/time.md): Members log on any task they see, Guests only as its assignee or reviewer
  // (the to-do task has neither); one's own logs, Admins anyone's. Stopping and dropping the timer
  // come before starting it: nobody has a timer yet, so all answer 409.
  'POST /api/tasks/:id/time/': {
    expect: [401, 404, 403, 201, 201, 201],
    call: (f) => ({ url: `/api/tasks/${f.tasks.todo}/time/`, payload: { date: today, hours: 0.25 } }),
  },
  'GET /api/time/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/time/?workspace=${f.workspace}&from=${today}&to=${today}` }),
  },
  'GET /api/time/export.csv': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/time/export.csv?workspace=${f.workspace}&from=${today}&to=${today}` }),
  },
  'PATCH /api/time/:id/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/time/${f.timeLog}/`, payload: { note: 'Matrix' } }),
  },
  'DELETE /api/time/:id/': {
    expect: [401, 404, 403, 204, 204, 204],
    call: (f) => ({ url: `/api/time/${f.timeLog}/` }),
  },
  'GET /api/timer/': { expect: signedIn(200), call: at('/api/timer/') },
  'POST /api/timer/stop/': { expect: signedIn(409), call: at('/api/timer/stop/', {}) },
  'DELETE /api/timer/': { expect: signedIn(409), call: at('/api/timer/') },
  'POST /api/tasks/:id/timer/start/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/tasks/${f.tasks.todo}/timer/start/` }),
  },
  // Schedule (docs/schedule.md): everyone reads the calendar, milestones and forecast; Members manage
  // milestones; Admins the calendar; each person their own days off (anyone's for Admins); the feed is
  // one's own, and its URL is the secret (an unknown token: a bare 404 for anyone).
  'GET /api/workspaces/:id/calendar/': { expect: [401, 404, 200, 200, 200, 200], call: ws('calendar/') },
  'PUT /api/workspaces/:id/calendar/': {
    expect: [401, 404, 403, 403, 200, 200],
    call: ws('calendar/', () => ({ working_days: [1, 2, 3, 4, 5] })),
  },
  'PUT /api/workspaces/:id/days-off/:user/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/workspaces/${f.workspace}/days-off/${self(f)}/`, payload: { dates: [today] } }),
  },
  'GET /api/workspaces/:id/workload/': { expect: [401, 404, 200, 200, 200, 200], call: ws('workload/') },
  'GET /api/projects/:id/milestones/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/${f.project}/milestones/` }),
  },
  'POST /api/projects/:id/milestones/': {
    expect: [401, 404, 403, 201, 201, 201],
    call: (f) => ({ url: `/api/projects/${f.project}/milestones/`, payload: { name: 'Cut', date: today } }),
  },
  'PATCH /api/milestones/:id/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({ url: `/api/milestones/${f.milestone}/`, payload: { name: 'Moved' } }),
  },
  'DELETE /api/milestones/:id/': {
    expect: [401, 404, 403, 204, 204, 204],
    call: (f) => ({ url: `/api/milestones/${f.milestone}/` }),
  },
  'GET /api/projects/:id/forecast/': {
    expect: [401, 404, 200, 200, 200, 200],
    call: (f) => ({ url: `/api/projects/${f.project}/forecast/` }),
  },
  'GET /api/me/calendar-feed/': { expect: signedIn(200), call: at('/api/me/calendar-feed/') },
  'POST /api/me/calendar-feed/': { expect: signedIn(201), call: at('/api/me/calendar-feed/') },
  'DELETE /api/me/calendar-feed/': { expect: signedIn(204), call: at('/api/me/calendar-feed/') },
  'GET /api/calendar/:token.ics': { expect: publicAll(404), call: at('/api/calendar/not-a-feed-token-00000000.ics') },
  'POST /api/stages/bulk_update/': {
    expect: [401, 404, 403, 200, 200, 200],
    call: (f) => ({
      url: '/api/stages/bulk_update/',
      payload: { stages: [f.pipeline.stage], changes: { todo_enabled: false, default_reviewers: [f.users.guest.id] } },
    }),
  },
};

describe('permission matrix', () => {
  let t: TestApp;
  const registered = new Set<string>();
  let users: Fixture['users'];

  beforeAll(async () => {
    t = await buildTestApp({
      authLimits: relaxedLimits,
      // Every cell gives the same owner a fresh workspace: far past the default cap of owned ones,
      // which workspaces.test.ts covers.
      config: { maxOwnedWorkspaces: 100_000 },
      onRoute: (route) => {
        for (const method of [route.method].flat()) registered.add(`${method} ${route.url}`);
      },
    });
    await t.app.ready();
    const [owner, admin, member, guest, outsider, invitee] = await Promise.all(
      ['owner', 'admin', 'member', 'guest', 'outsider', 'invitee'].map((prefix) => buildUser(t, { prefix })),
    );
    users = { owner: owner!, admin: admin!, member: member!, guest: guest!, outsider: outsider!, invitee: invitee! };
  });
  afterAll(async () => {
    await t?.close();
  });

  /** HEAD routes that only mirror a GET are covered by the GET. */
  function routesOfApp(): string[] {
    return [...registered]
      .filter((route) => {
        const [method, url] = route.split(' ');
        return method !== 'HEAD' || !registered.has(`GET ${url}`);
      })
      .sort();
  }

  it('has an entry for every route the app registers, and none for a route that is gone', () => {
    const routes = routesOfApp();
    expect(routes.length).toBeGreaterThan(50);
    expect(
      routes.filter((route) => !(route in table)),
      'routes missing from the permission matrix',
    ).toEqual([]);
    expect(
      Object.keys(table).filter((route) => !routes.includes(route)),
      'stale entries',
    ).toEqual([]);
  });

  async function fixture(caller: Caller): Promise<Fixture> {
    const workspace = await buildWorkspace(t, { owner: users.owner });
    await addMember(t, { workspace, user: users.admin, role: 'admin', inviter: users.owner });
    await addMember(t, { workspace, user: users.member, role: 'member', inviter: users.owner });
    await addMember(t, { workspace, user: users.guest, role: 'guest', inviter: users.owner });
    const [invite] = await t.database.db
      .insert(schema.invites)
      .values({
        workspaceId: workspace.id,
        userId: users.invitee.id,
        role: 'member',
        inviterId: users.owner.id,
        tokenHash: fresh(),
        sentAt: new Date(Date.now() - 60_000),
      })
      .returning({ id: schema.invites.id });
    const linkToken = `link${fresh()}`;
    await t.database.db
      .insert(schema.inviteLinks)
      .values({ workspaceId: workspace.id, token: linkToken, role: 'guest', createdBy: users.owner.id });
    const byCaller: Record<Caller, TestUser | null> = {
      'signed out': null,
      'non-member': users.outsider,
      guest: users.guest,
      member: users.member,
      admin: users.admin,
      owner: users.owner,
    };
    const project = await buildProject(t, { workspace });
    const pipeline = await buildPipeline(t, { project, stages: 1 });
    const stage = pipeline.stages[0]!;
    const db = t.database.db;
    const units = await db
      .insert(schema.units)
      .values(['Todo', 'Progress', 'Review'].map((name) => ({ projectId: project.id, pipelineId: pipeline.id, name })))
      .returning({ id: schema.units.id });
    const [todo, inProgress, review] = await db
      .insert(schema.tasks)
      .values(
        (['todo', 'in_progress', 'review'] as const).map((status, i) => ({
          unitId: units[i]!.id,
          stageId: stage,
          pipelineId: pipeline.id,
          status,
          iterationNumber: status === 'review' ? 1 : 0,
          useStageDefaults: status !== 'review',
        })),
      )
      .returning({ id: schema.tasks.id });
    await db.insert(schema.taskIterations).values({ taskId: review!.id, number: 1 });
    await db
      .insert(schema.taskReviewers)
      .values([users.guest, users.member, users.admin, users.owner].map((u) => ({ taskId: review!.id, userId: u.id })));
    const [team] = await db
      .insert(schema.teams)
      .values({ workspaceId: workspace.id, name: 'Leads', color: '#123456' })
      .returning({ id: schema.teams.id });
    await db
      .insert(schema.teamMembers)
      .values([users.guest, users.member, users.admin, users.owner].map((u) => ({ teamId: team!.id, userId: u.id })));
    const teamUnits = await db
      .insert(schema.units)
      .values(['Queue', 'Remind'].map((name) => ({ projectId: project.id, pipelineId: pipeline.id, name })))
      .returning({ id: schema.units.id });
    const [queue, remind] = await db
      .insert(schema.tasks)
      .values([
        { unitId: teamUnits[0]!.id, stageId: stage, pipelineId: pipeline.id, status: 'todo', useStageDefaults: false },
        {
          unitId: teamUnits[1]!.id,
          stageId: stage,
          pipelineId: pipeline.id,
          status: 'review',
          iterationNumber: 1,
          useStageDefaults: false,
        },
      ])
      .returning({ id: schema.tasks.id });
    await db.insert(schema.taskAssigneeTeams).values({ ownerId: queue!.id, teamId: team!.id });
    await db.insert(schema.taskIterations).values({ taskId: remind!.id, number: 1 });
    await db.insert(schema.taskAssignees).values({ taskId: remind!.id, userId: users.member.id });
    await db.insert(schema.taskReviewers).values({ taskId: remind!.id, userId: users.admin.id });
    const [comment] = await db
      .insert(schema.comments)
      .values({ workspaceId: workspace.id, taskId: review!.id, authorId: users.member.id, text: 'Matrix' })
      .returning({ id: schema.comments.id });
    const [notification] = await db
      .insert(schema.notifications)
      .values({ userId: users.member.id, kind: 'comment', workspaceId: workspace.id, commentId: comment!.id })
      .returning({ id: schema.notifications.id });
    const [webhook] = await db
      .insert(schema.webhooks)
      .values({
        workspaceId: workspace.id,
        url: 'http://127.0.0.1:9/hook',
        events: ['unit.created'],
        secret: 'whsec_matrix',
      })
      .returning({ id: schema.webhooks.id });
    const [delivery] = await db
      .insert(schema.webhookDeliveries)
      .values({ webhookId: webhook!.id, event: 'unit.created', data: {}, status: 'failed', nextAttemptAt: null })
      .returning({ id: schema.webhookDeliveries.id });
    const [view] = await db
      .insert(schema.savedViews)
      .values({
        projectId: project.id,
        authorId: users.member.id,
        kind: 'matrix',
        name: 'Shared',
        filters: {},
        shared: true,
      })
      .returning({ id: schema.savedViews.id });
    const [field] = await db
      .insert(schema.fieldDefinitions)
      .values({ projectId: project.id, key: 'client', name: 'Client', kind: 'text' })
      .returning({ id: schema.fieldDefinitions.id });
    const storageKey = `matrix/${fresh()}`;
    const [attachment] = await db
      .insert(schema.attachments)
      .values({
        workspaceId: workspace.id,
        taskId: review!.id,
        authorId: users.member.id,
        name: 'notes.txt',
        contentType: 'text/plain',
        size: 5,
        storageKey,
        thumbnail: Buffer.from('thumb'),
        completedAt: new Date(),
      })
      .returning({ id: schema.attachments.id });
    await db.insert(schema.fileChunks).values({ key: storageKey, seq: 0, data: Buffer.from('notes') });
    const [timeLog] = await db
      .insert(schema.timeLogs)
      .values({
        workspaceId: workspace.id,
        projectId: project.id,
        taskId: todo!.id,
        userId: users.member.id,
        date: someDayAhead(),
        hours: 0.25,
      })
      .onConflictDoNothing()
      .returning({ id: schema.timeLogs.id });
    const [milestone] = await db
      .insert(schema.milestones)
      .values({ projectId: project.id, name: 'Matrix', date: today })
      .returning({ id: schema.milestones.id });
    const [reviewSession] = await db
      .insert(schema.reviewSessions)
      .values({ workspaceId: workspace.id, projectId: project.id, name: 'Dailies', authorId: users.member.id })
      .returning({ id: schema.reviewSessions.id });
    const [reviewItem] = await db
      .insert(schema.reviewSessionItems)
      .values({ sessionId: reviewSession!.id, taskId: review!.id, position: 1 })
      .returning({ id: schema.reviewSessionItems.id });
    const shared = await t.app.inject({
      method: 'POST',
      url: `/api/review_sessions/${reviewSession!.id}/links/`,
      payload: { may_decide: true },
      headers: users.owner.headers,
    });
    const reviewLink = shared.json<{ id: number; token: string }>();
    return {
      workspace: workspace.id,
      caller: byCaller[caller],
      users,
      inviteId: invite!.id,
      linkToken,
      project: project.id,
      pipeline: { ...pipeline, stage },
      unit: units[0]!.id,
      milestone: milestone!.id,
      tasks: { todo: todo!.id, inProgress: inProgress!.id, review: review!.id, queue: queue!.id, remind: remind!.id },
      team: team!.id,
      comment: comment!.id,
      notification: notification!.id,
      webhook: webhook!.id,
      delivery: delivery!.id,
      view: view!.id,
      attachment: attachment!.id,
      timeLog: timeLog?.id ?? 0,
      field: field!.id,
      review: { session: reviewSession!.id, item: reviewItem!.id, link: reviewLink.id, token: reviewLink.token },
    };
  }

  const cells = Object.entries(table).flatMap(([route, entry]) =>
    callers.map((caller, index) => {
      const status = entry.expect[index]!;
      return [`${route} as ${caller} → ${status}`, { route, caller, status, entry }] as const;
    }),
  );

  /**
   * A scene per caller for the cells that change nothing: every read, and every write the caller is
   * refused (a refusal writes nothing; one that did would fail its own cell). Building a scene is many
   * inserts and most of this file's time, so only the writes that succeed get a fresh one each.
   */
  const sharedScenes = new Map<Caller, Promise<Fixture>>();
  const sharedScene = (caller: Caller) => {
    let scene = sharedScenes.get(caller);
    if (!scene) sharedScenes.set(caller, (scene = fixture(caller)));
    return scene;
  };

  it.each(cells)('%s', async (_name, { route, caller, status, entry }) => {
    const method = route.split(' ')[0] as 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
    const changesNothing = method === 'GET' || method === 'HEAD' || status >= 400;
    const f = changesNothing ? await sharedScene(caller) : await fixture(caller);
    const { url, payload, headers } = entry.call(f);
    const response = await t.app.inject({
      method,
      url,
      payload,
      headers: { ...(f.caller?.headers ?? {}), ...headers },
      ...(entry.stream ? { payloadAsStream: true } : {}),
    });
    if (entry.stream) response.stream().destroy();
    const body = entry.stream ? '(a stream)' : response.body.slice(0, 300);
    expect(response.statusCode, `${route} as ${caller}: ${body}`).toBe(status);
  });
});
