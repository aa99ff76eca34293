import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TAuditEntry, TAuditPage } from '@stageline/shared/audit';
import { rowsOf, schema } from '../../db';
import { login, relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildFlow, buildUnit } from '../../../test/units';
import { addMember, as, buildTeam, buildUser, buildWorkspace, type Team } from '../../../test/workspaces';
import { pruneAuditLog } from './service';

/** The workspace audit log (docs/history-and-audit.md): what is recorded, who reads it, and that it stays. */

let t: TestApp;
let team: Team;

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
  team = await buildTeam(t);
});
afterAll(async () => {
  await t?.close();
});

const auditUrl = (query = '', workspace = team.workspace.id) => `/api/workspaces/${workspace}/audit/${query}`;

async function entries(query = '', user: Team['admin'] = team.admin): Promise<TAuditEntry[]> {
  const response = await as(t, user)('GET', auditUrl(query));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TAuditPage>().results;
}

describe('who reads it', () => {
  test('Admins and the owner; Members and Guests 403, outsiders 404, signed out 401', async () => {
    for (const user of [team.owner, team.admin]) expect((await as(t, user)('GET', auditUrl())).statusCode).toBe(200);
    for (const user of [team.member, team.guest]) expect((await as(t, user)('GET', auditUrl())).statusCode).toBe(403);
    expect((await as(t, team.outsider)('GET', auditUrl())).statusCode).toBe(404);
    expect((await as(t, null)('GET', auditUrl())).statusCode).toBe(401);
    expect((await as(t, team.member)('GET', `${auditUrl()}export.csv`)).statusCode).toBe(403);
  });

  test('the workspace tells who may read it', async () => {
    const admin = await as(t, team.admin)('GET', `/api/workspaces/${team.workspace.id}/`);
    expect(admin.json<{ abilities: { view_audit: boolean } }>().abilities.view_audit).toBe(true);
    const member = await as(t, team.member)('GET', `/api/workspaces/${team.workspace.id}/`);
    expect(member.json<{ abilities: { view_audit: boolean } }>().abilities.view_audit).toBe(false);
  });

  test('bad filters are a 400 naming the field', async () => {
    const bad = await as(t, team.admin)('GET', auditUrl('?action=nonsense'));
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<Record<string, unknown>>())).toContain('action');
    const reversed = await as(t, team.admin)('GET', auditUrl('?from=2026-02-01&to=2026-01-01'));
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json<Record<string, string[]>>().to).toBeDefined();
  });
});

describe('sign-ins', () => {
  test('a sign-in and a failed one appear in each workspace of the account, with address and agent', async () => {
    const other = await buildWorkspace(t, { owner: team.outsider });
    await addMember(t, { workspace: other, user: team.member, role: 'member' });
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/users/login/',
      payload: { username: team.member.username, password: 'correct horse battery' },
      headers: { 'user-agent': 'AuditTest/1.0' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await login(t.app, team.member.username, 'wrong password')).statusCode).toBe(400);

    const mine = await entries(`?actor=${team.member.id}`);
    const signIn = mine.find((e) => e.action === 'auth.sign_in' && e.user_agent === 'AuditTest/1.0');
    expect(signIn).toMatchObject({
      actor: { id: team.member.id, username: team.member.username },
      target: { kind: 'session' },
      address: '127.0.0.1',
      details: { method: 'password' },
    });
    expect(mine.find((e) => e.action === 'auth.sign_in_failed')).toMatchObject({ details: { reason: 'password' } });
    const theirs = await as(t, team.outsider)('GET', auditUrl(`?actor=${team.member.id}`, other.id));
    expect(theirs.json<TAuditPage>().results.map((e) => e.action)).toEqual(['auth.sign_in_failed', 'auth.sign_in']);
  });

  test('a name no account has leaves no entry anywhere', async () => {
    const [before] = await rowsOf<{ n: number }>(t.database.db, sql`select count(*)::int as n from audit_log`);
    expect((await login(t.app, 'nobody-by-this-name', 'whatever')).statusCode).toBe(400);
    const [after] = await rowsOf<{ n: number }>(t.database.db, sql`select count(*)::int as n from audit_log`);
    expect(after!.n).toBe(before!.n);
  });
});

describe('what is recorded', () => {
  test('role changes, removals, settings, webhooks, tokens, exports and deletions', async () => {
    const extra = await buildUser(t, { prefix: 'extra' });
    await addMember(t, { workspace: team.workspace, user: extra, role: 'guest' });
    const admin = as(t, team.admin);
    expect(
      (await admin('POST', `/api/workspaces/${team.workspace.id}/set_roles/`, { users: [extra.id], role: 'member' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await admin('POST', `/api/workspaces/${team.workspace.id}/remove_users/`, { users: [extra.id] })).statusCode,
    ).toBe(200);
    expect(
      (await admin('PATCH', `/api/workspaces/${team.workspace.id}/`, { audit_retention_days: 90 })).statusCode,
    ).toBe(200);
    const hook = await admin('POST', `/api/workspaces/${team.workspace.id}/webhooks/`, {
      url: 'http://127.0.0.1:9/hook',
      events: ['unit.created'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const hookId = hook.json<{ id: number }>().id;
    expect((await admin('PATCH', `/api/webhooks/${hookId}/`, { active: false })).statusCode).toBe(200);
    expect((await admin('DELETE', `/api/webhooks/${hookId}/`)).statusCode).toBe(204);
    const token = await admin('POST', '/api/users/me/tokens/', { name: 'CI', scope: 'read' });
    expect(token.statusCode, token.body).toBe(201);
    expect((await admin('DELETE', `/api/users/me/tokens/${token.json<{ id: number }>().id}/`)).statusCode).toBe(204);

    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    const unit = await buildUnit(t, team.member, flow, 'Doomed');
    expect((await admin('GET', `/api/pipelines/${flow.pipeline.id}/export.csv`)).statusCode).toBe(200);
    expect((await admin('DELETE', `/api/units/${unit.id}/`)).statusCode).toBe(204);
    expect((await admin('DELETE', `/api/pipelines/${flow.pipeline.id}/`)).statusCode).toBe(204);
    expect((await admin('DELETE', `/api/projects/${flow.project.id}/`)).statusCode).toBe(204);

    const log = await entries(`?actor=${team.admin.id}&limit=30`);
    const actions = log.map((e) => e.action);
    for (const action of [
      'member.role_changed',
      'member.removed',
      'workspace.settings_changed',
      'webhook.created',
      'webhook.changed',
      'webhook.deleted',
      'api_token.created',
      'api_token.revoked',
      'export.csv',
      'unit.deleted',
      'pipeline.deleted',
      'project.deleted',
    ] as const) {
      expect(actions, action).toContain(action);
    }
    expect(log.find((e) => e.action === 'member.role_changed')).toMatchObject({
      target: { kind: 'user', id: extra.id, name: extra.username },
      details: { from: 'guest', to: 'member' },
    });
    expect(log.find((e) => e.action === 'workspace.settings_changed')?.details).toEqual({
      auditRetentionDays: { from: 365, to: 90 },
    });
    expect(log.find((e) => e.action === 'unit.deleted')?.target).toEqual({ kind: 'unit', id: unit.id, name: 'Doomed' });
    expect(log.find((e) => e.action === 'export.csv')?.details).toMatchObject({ what: 'pipeline', rows: 1 });
  });

  test('a change that fails leaves no entry (written in its transaction)', async () => {
    const before = await entries('?action=webhook.created');
    const refused = await as(t, team.admin)('POST', `/api/workspaces/${team.workspace.id}/webhooks/`, {
      url: 'not a url',
      events: ['unit.created'],
    });
    expect(refused.statusCode).toBe(400);
    expect(await entries('?action=webhook.created')).toEqual(before);
  });

  test('retention outside its bounds is a 400 naming the field', async () => {
    const refused = await as(t, team.admin)('PATCH', `/api/workspaces/${team.workspace.id}/`, {
      audit_retention_days: 5,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<Record<string, string[]>>().audit_retention_days).toBeDefined();
  });
});

describe('filters, pages and CSV', () => {
  test('by action, by person and by days; keyset pages cover everything once', async () => {
    const all = await entries('?limit=200');
    expect(all.length).toBeGreaterThan(5);
    const pages: TAuditEntry[] = [];
    let before: number | null = null;
    do {
      const response = await as(t, team.admin)('GET', auditUrl(`?limit=3${before ? `&before=${before}` : ''}`));
      const page: TAuditPage = response.json<TAuditPage>();
      pages.push(...page.results);
      before = page.next;
    } while (before !== null);
    expect(pages.map((e) => e.id)).toEqual(all.map((e) => e.id));

    expect((await entries('?action=auth.sign_in')).every((e) => e.action === 'auth.sign_in')).toBe(true);
    expect((await entries(`?actor=${team.guest.id}`)).every((e) => e.actor?.id === team.guest.id)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect((await entries(`?from=${today}&to=${today}&limit=200`)).length).toBe(all.length);
    expect(await entries('?from=2020-01-01&to=2020-01-31')).toEqual([]);
  });

  test('the CSV export holds the filtered entries and is itself recorded', async () => {
    const response = await as(t, team.admin)('GET', `${auditUrl()}export.csv?action=auth.sign_in`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('id,at,action,actor,target,target_id,target_name,address,user_agent,details');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => line.includes(',auth.sign_in,'))).toBe(true);
    const [latest] = await entries('?action=export.csv');
    expect(latest).toMatchObject({
      actor: { id: team.admin.id },
      details: { what: 'audit_log', action: 'auth.sign_in' },
    });
  });
});

describe('append-only', () => {
  const anyEntry = async () => {
    const [row] = await t.database.db
      .insert(schema.auditLog)
      .values({ workspaceId: team.workspace.id, action: 'auth.sign_in', actorId: team.admin.id })
      .returning({ id: schema.auditLog.id });
    return row!.id;
  };

  /** The database's own message (Drizzle wraps it as the cause of its "Failed query"). */
  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => undefined,
      (caught: unknown) => caught as Error & { cause?: Error },
    );
    return error?.cause?.message ?? error?.message;
  };

  test('the database refuses a direct UPDATE or DELETE of an entry', async () => {
    const id = await anyEntry();
    const db = t.database.db;
    expect(await refusal(db.execute(sql`update audit_log set action = 'auth.sign_in' where id = ${id}`))).toMatch(
      /append-only: UPDATE refused/,
    );
    expect(await refusal(db.execute(sql`delete from audit_log where id = ${id}`))).toMatch(
      /append-only: DELETE refused/,
    );
    expect(await refusal(db.execute(sql`truncate audit_log`))).toMatch(/append-only: TRUNCATE refused/);
    // Even the retention job's setting allows no UPDATE.
    const rewrite = db.transaction(async (tx) => {
      await tx.execute(sql`set local stageline.audit_retention = 'on'`);
      await tx.execute(sql`update audit_log set action = 'x' where id = ${id}`);
    });
    expect(await refusal(rewrite)).toMatch(/append-only: UPDATE refused/);
    expect(await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.id, id))).toHaveLength(1);
  });

  test('the retention job deletes only entries past their workspace’s days', async () => {
    const owner = await buildUser(t, { prefix: 'retention' });
    const workspace = await buildWorkspace(t, { owner });
    await t.database.db
      .update(schema.workspaces)
      .set({ auditRetentionDays: 30 })
      .where(eq(schema.workspaces.id, workspace.id));
    const day = 86_400_000;
    await t.database.db.insert(schema.auditLog).values([
      { workspaceId: workspace.id, action: 'auth.sign_in', createdAt: new Date(Date.now() - 31 * day) },
      { workspaceId: workspace.id, action: 'auth.sign_in', createdAt: new Date(Date.now() - 29 * day) },
      // The team's workspace keeps 90 days (set above): kept at 60 days old.
      { workspaceId: team.workspace.id, action: 'auth.sign_in', createdAt: new Date(Date.now() - 60 * day) },
    ]);
    expect(await pruneAuditLog(t.database.db)).toBeGreaterThanOrEqual(1);
    const left = await t.database.db
      .select({ createdAt: schema.auditLog.createdAt })
      .from(schema.auditLog)
      .where(eq(schema.auditLog.workspaceId, workspace.id));
    expect(left).toHaveLength(1);
    expect(
      await t.database.db
        .select()
        .from(schema.auditLog)
        .where(and(eq(schema.auditLog.workspaceId, team.workspace.id), sql`created_at < now() - interval '59 days'`)),
    ).toHaveLength(1);
  });

  test('a deleted workspace takes its entries with it', async () => {
    const owner = await buildUser(t, { prefix: 'gone' });
    const workspace = await buildWorkspace(t, { owner });
    await as(t, owner)('PATCH', `/api/workspaces/${workspace.id}/`, { name: 'Going' });
    expect(
      await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.workspaceId, workspace.id)),
    ).not.toHaveLength(0);
    expect((await as(t, owner)('DELETE', `/api/workspaces/${workspace.id}/`)).statusCode).toBe(204);
    expect(
      await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.workspaceId, workspace.id)),
    ).toHaveLength(0);
  });
});
