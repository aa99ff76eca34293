import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { and, eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { Limits, type TWebhook, type TWebhookCreated, type TWebhookDelivery } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { startReceiver, startSilentReceiver, type Received } from '../../../test/receiver';
import { killServers, sharedPostgresDatabase, startServer } from '../../../test/server-process';
import { act, buildFlow, buildUnit, ok, taskAt } from '../../../test/units';
import { as, buildTeam, type Team } from '../../../test/workspaces';
import { emitWebhookEvents } from '../events';

/** Webhooks: made by admins, delivered signed after commit, retried, logged, redelivered, turned off. */

let t: TestApp;
let team: Team;

beforeAll(async () => {
  // Tries one after another within a test's patience (production waits a minute, then longer).
  // A try waits 3 s for an answer (production: 10 s), so a silent receiver's tries end within a test.
  t = await buildTestApp({
    authLimits: relaxedLimits,
    webhookBackoffSeconds: [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2],
    webhookTimeoutMs: 3000,
  });
  team = await buildTeam(t);
});
afterAll(async () => {
  await t?.close();
});

async function addWebhook(receiver: { url: string }, events: string[], workspace = team.workspace.id, by = team) {
  const response = await as(t, by.admin)('POST', `/api/workspaces/${workspace}/webhooks/`, {
    url: receiver.url,
    events,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<TWebhookCreated>();
}

/** A delivery's headers as the standardwebhooks package reads them. */
const headersOf = (received: Received) =>
  Object.fromEntries(Object.entries(received.headers).map(([name, value]) => [name, String(value)]));

const deliveriesOf = async (hook: { id: number }, by = team) =>
  (await as(t, by.admin)('GET', `/api/webhooks/${hook.id}/deliveries/`)).json<TWebhookDelivery[]>();

describe('managing webhooks', () => {
  test('admins and the owner manage them; members get 403, outsiders 404; the secret is shown once', async () => {
    const receiver = await startReceiver();
    try {
      const created = await addWebhook(receiver, ['unit.created']);
      expect(created.secret).toMatch(/^whsec_/);
      expect(created).toMatchObject({ url: receiver.url, events: ['unit.created'], active: true });

      const listed = await as(t, team.owner)('GET', `/api/workspaces/${team.workspace.id}/webhooks/`);
      expect(listed.statusCode).toBe(200);
      expect(listed.body).not.toContain(created.secret);
      expect(listed.json<TWebhook[]>().map((hook) => hook.id)).toContain(created.id);

      const body = { url: receiver.url, events: ['unit.created'] };
      expect(
        (await as(t, team.member)('POST', `/api/workspaces/${team.workspace.id}/webhooks/`, body)).statusCode,
      ).toBe(403);
      expect((await as(t, team.member)('GET', `/api/webhooks/${created.id}/`)).statusCode).toBe(403);
      expect((await as(t, team.outsider)('GET', `/api/webhooks/${created.id}/`)).statusCode).toBe(404);
      expect((await as(t, team.outsider)('DELETE', `/api/webhooks/${created.id}/`)).statusCode).toBe(404);

      const patched = await as(t, team.admin)('PATCH', `/api/webhooks/${created.id}/`, { active: false });
      expect(patched.json<TWebhook>().active).toBe(false);
      expect((await as(t, team.admin)('DELETE', `/api/webhooks/${created.id}/`)).statusCode).toBe(204);
      expect((await as(t, team.admin)('GET', `/api/webhooks/${created.id}/`)).statusCode).toBe(404);
    } finally {
      await receiver.close();
    }
  });

  test('loopback, private, link-local and metadata addresses are refused without WEBHOOKS_ALLOW_PRIVATE', async () => {
    const strict = await buildTestApp({ database: t.database, config: { webhooksAllowPrivate: false } });
    try {
      for (const url of [
        'http://127.0.0.1:8080/hook',
        'http://localhost/hook',
        'http://10.1.2.3/hook',
        'http://192.168.0.10/hook',
        'http://172.16.5.4/hook',
        'http://169.254.169.254/latest/meta-data/',
        'http://[::1]/hook',
        'http://[::ffff:127.0.0.1]/hook',
        'http://[fd00:ec2::254]/hook',
        'http://0.0.0.0/hook',
      ]) {
        const response = await strict.app.inject({
          method: 'POST',
          url: `/api/workspaces/${team.workspace.id}/webhooks/`,
          headers: team.admin.headers,
          payload: { url, events: ['unit.created'] },
        });
        expect(response.statusCode, url).toBe(400);
        expect(response.json(), url).toEqual({
          url: ['This address is private or local: webhooks may only call public addresses.'],
        });
      }
      const ftp = await strict.app.inject({
        method: 'POST',
        url: `/api/workspaces/${team.workspace.id}/webhooks/`,
        headers: team.admin.headers,
        payload: { url: 'ftp://example.com/hook', events: ['unit.created'] },
      });
      expect(ftp.json()).toEqual({ url: ['Enter an http:// or https:// address.'] });
    } finally {
      await strict.close();
    }
  });
});

describe('deliveries', () => {
  test('after commit, signed with the secret, with the event, delivery id, workspace and data', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await addWebhook(receiver, ['unit.created', 'task.created']);
      const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}, {}] });
      const unit = await buildUnit(t, team.owner, flow, 'Shot 010, "final"');
      const arrived = await receiver.waitFor(3);
      const unitEvent = arrived.find((r) => r.json.event === 'unit.created')!;
      expect(unitEvent.json).toMatchObject({
        event: 'unit.created',
        workspace: team.workspace.id,
        data: { unit: { id: unit.id, name: 'Shot 010, "final"', pipeline: flow.pipeline.id } },
      });
      expect(unitEvent.headers['x-stageline-event']).toBe('unit.created');
      expect(unitEvent.headers['webhook-id']).toBe(unitEvent.json.delivery);
      // Standard Webhooks, checked by its reference implementation (the npm package standardwebhooks).
      expect(new Webhook(hook.secret).verify(unitEvent.body, headersOf(unitEvent))).toEqual(unitEvent.json);
      const tasks = arrived
        .filter((r) => r.json.event === 'task.created')
        .map((r) => (r.json.data as { task: { id: number } }).task.id);
      expect(tasks.sort()).toEqual(unit.tasks.map((task) => task.id).sort());

      // The receiver answers before the dispatcher records the answer: wait for the log to catch up.
      const log = await vi.waitFor(
        async () => {
          const rows = await deliveriesOf(hook);
          expect(rows).toHaveLength(3);
          expect(rows.every((d) => d.status === 'succeeded')).toBe(true);
          return rows;
        },
        { timeout: 10_000, interval: 100 },
      );
      expect(log.every((d) => d.attempts === 1 && d.response_status === 200)).toBe(true);
      expect(log[0]!.response_excerpt).toBe('thanks');
    } finally {
      await receiver.close();
    }
  });

  test('task events: status changes, reviews with who and the outcome, edits', async () => {
    const receiver = await startReceiver();
    try {
      await addWebhook(receiver, ['task.status_changed', 'task.review', 'task.updated']);
      const flow = await buildFlow(t, { workspace: team.workspace, stages: [{ reviewers: [team.member] }] });
      const unit = await buildUnit(t, team.owner, flow);
      const task = taskAt(unit, flow, 0);
      ok(await act(t, team.owner, task, 'start'));
      ok(await act(t, team.owner, task, 'submit'));
      ok(await act(t, team.member, task, 'accept'));
      ok(await as(t, team.owner)('PATCH', `/api/tasks/${task}/`, { assignees: [team.owner.id] }));
      // Up to two deliveries of a webhook are under way at once, so they may arrive out of order:
      // the delivery id gives the order of the changes.
      const events = (await receiver.waitFor(5)).sort((a, b) => Number(a.json.delivery) - Number(b.json.delivery));
      expect(events.map((r) => r.json.event)).toEqual([
        'task.status_changed',
        'task.status_changed',
        'task.review',
        'task.status_changed',
        'task.updated',
      ]);
      expect(events[2]!.json.data).toMatchObject({ verdict: 'accept', reviewer: team.member.id, outcome: 'done' });
      expect(events[3]!.json.data).toMatchObject({ from: 'review', to: 'done', actor: team.member.id });
      expect(events[4]!.json.data).toMatchObject({ assignees: [team.owner.id] });
    } finally {
      await receiver.close();
    }
  });

  test('a rolled-back change sends nothing', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await addWebhook(receiver, ['unit.created']);
      await t.database.db
        .transaction(async (tx) => {
          await emitWebhookEvents(tx, team.workspace.id, [{ event: 'unit.created', data: { unit: { id: 1 } } }]);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await t.app.webhookDispatcher.wake();
      expect(await deliveriesOf(hook)).toEqual([]);
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  test('a 500 is retried until it succeeds; the log shows the tries; redeliver and ping send anew', async () => {
    const receiver = await startReceiver((_received, index) => (index < 2 ? 500 : 200));
    try {
      const hook = await addWebhook(receiver, ['comment.created']);
      const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
      const unit = await buildUnit(t, team.owner, flow);
      const comment = await as(t, team.member)('POST', '/api/comments/', { unit: unit.id, text: 'Looks good' });
      expect(comment.statusCode).toBe(201);
      const tries = await receiver.waitFor(3);
      expect(new Set(tries.map((r) => r.json.delivery)).size).toBe(1);
      expect(tries[0]!.json.data).toMatchObject({ comment: { text: 'Looks good', unit: unit.id } });
      // The receiver has answered the third try; the dispatcher records that answer a moment later
      // (100 ms was not always enough on a loaded machine).
      await expect
        .poll(async () => (await deliveriesOf(hook))[0], { timeout: 10_000 })
        .toMatchObject({ status: 'succeeded', attempts: 3, response_status: 200 });
      const [delivery] = await deliveriesOf(hook);

      const again = await as(t, team.admin)('POST', `/api/webhooks/${hook.id}/deliveries/${delivery!.id}/redeliver/`);
      expect(again.statusCode).toBe(201);
      expect(again.json<TWebhookDelivery>().redelivery_of).toBe(delivery!.id);
      const redelivered = (await receiver.waitFor(4))[3]!;
      expect(redelivered.json.event).toBe('comment.created');
      expect(redelivered.json.delivery).not.toBe(tries[0]!.json.delivery);
      expect(redelivered.json.data).toEqual(tries[0]!.json.data);

      expect((await as(t, team.admin)('POST', `/api/webhooks/${hook.id}/ping/`)).statusCode).toBe(201);
      expect((await receiver.waitFor(5))[4]!.json.event).toBe('ping');
    } finally {
      await receiver.close();
    }
  });

  test('after a day of failures the webhook is turned off and the admins are told', async () => {
    const receiver = await startReceiver(() => 503);
    try {
      const hook = await addWebhook(receiver, ['unit.created']);
      await t.database.db
        .update(schema.webhooks)
        .set({ failingSince: sql`now() - interval '25 hours'` })
        .where(eq(schema.webhooks.id, hook.id));
      const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
      await buildUnit(t, team.owner, flow);
      await receiver.waitFor(1);
      for (let i = 0; i < 50; i++) {
        const current = (await as(t, team.admin)('GET', `/api/webhooks/${hook.id}/`)).json<TWebhook>();
        if (!current.active) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const off = (await as(t, team.admin)('GET', `/api/webhooks/${hook.id}/`)).json<TWebhook>();
      expect(off).toMatchObject({ active: false, disabled_reason: 'Turned off after a day of failed deliveries.' });
      const notifications = await t.database.db
        .select({ userId: schema.notifications.userId })
        .from(schema.notifications)
        .where(eq(schema.notifications.kind, 'webhook_disabled'));
      expect(notifications.map((n) => n.userId).sort()).toEqual([team.owner.id, team.admin.id].sort());

      // Turning it on again starts afresh.
      const on = await as(t, team.admin)('PATCH', `/api/webhooks/${hook.id}/`, { active: true });
      expect(on.json<TWebhook>()).toMatchObject({ active: true, failing_since: null, disabled_reason: null });
    } finally {
      await receiver.close();
    }
  });
});

describe('Standard Webhooks signatures', () => {
  test('webhook-id, webhook-timestamp and webhook-signature verify with the standardwebhooks package; a changed timestamp does not', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await addWebhook(receiver, ['unit.created']);
      expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect((await as(t, team.admin)('POST', `/api/webhooks/${hook.id}/ping/`)).statusCode).toBe(201);
      const [ping] = await receiver.waitFor(1, (r) => r.json.event === 'ping');
      const headers = headersOf(ping!);
      expect(headers['webhook-id']).toBe(ping!.json.delivery);
      expect(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(new Webhook(hook.secret).verify(ping!.body, headers)).toMatchObject({ event: 'ping' });
      // The signature covers the id and the time: a captured delivery replayed later, or under another
      // id, does not verify.
      const later = { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) + 1) };
      expect(() => new Webhook(hook.secret).verify(ping!.body, later)).toThrow('No matching signature found');
      const otherId = { ...headers, 'webhook-id': '1' };
      expect(() => new Webhook(hook.secret).verify(ping!.body, otherId)).toThrow('No matching signature found');
    } finally {
      await receiver.close();
    }
  });

  test('a rotated secret: both secrets sign during the overlap, then only the new one', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await addWebhook(receiver, ['unit.created']);
      const rotated = await as(t, team.admin)('POST', `/api/webhooks/${hook.id}/rotate-secret/`);
      expect(rotated.statusCode).toBe(200);
      const { secret, previous_secret_until } = rotated.json<TWebhookCreated>();
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(hook.secret);
      const overlapMs = Date.parse(previous_secret_until!) - Date.now();
      expect(Math.abs(overlapMs - Limits.webhooks.rotationOverlapHours * 3_600_000)).toBeLessThan(60_000);
      expect((await as(t, team.member)('POST', `/api/webhooks/${hook.id}/rotate-secret/`)).statusCode).toBe(403);
      expect((await as(t, team.outsider)('POST', `/api/webhooks/${hook.id}/rotate-secret/`)).statusCode).toBe(404);

      await as(t, team.admin)('POST', `/api/webhooks/${hook.id}/ping/`);
      const [during] = await receiver.waitFor(1);
      expect(headersOf(during!)['webhook-signature']!.split(' ')).toHaveLength(2);
      expect(new Webhook(secret).verify(during!.body, headersOf(during!))).toMatchObject({ event: 'ping' });
      expect(new Webhook(hook.secret).verify(during!.body, headersOf(during!))).toMatchObject({ event: 'ping' });

      // The overlap over: the previous secret no longer signs.
      await t.database.db
        .update(schema.webhooks)
        .set({ previousSecretUntil: sql`now() - interval '1 second'` })
        .where(eq(schema.webhooks.id, hook.id));
      expect((await as(t, team.admin)('GET', `/api/webhooks/${hook.id}/`)).json<TWebhook>().previous_secret_until).toBe(
        null,
      );
      await as(t, team.admin)('POST', `/api/webhooks/${hook.id}/ping/`);
      const after = (await receiver.waitFor(2))[1]!;
      expect(headersOf(after)['webhook-signature']!.split(' ')).toHaveLength(1);
      expect(new Webhook(secret).verify(after.body, headersOf(after))).toMatchObject({ event: 'ping' });
      expect(() => new Webhook(hook.secret).verify(after.body, headersOf(after))).toThrow();
    } finally {
      await receiver.close();
    }
  });
});

describe('SSRF', () => {
  test("only public unicast addresses, never the server's own: the address table", async () => {
    const strict = await buildTestApp({ database: t.database, config: { webhooksAllowPrivate: false } });
    const own = Object.values(networkInterfaces())
      .flat()
      .filter((entry) => entry && !entry.internal && entry.family === 'IPv4')
      .map((entry) => `http://${entry!.address}/hook`);
    const owner = await buildTeam(t);
    try {
      const post = (url: string) =>
        strict.app.inject({
          method: 'POST',
          url: `/api/workspaces/${owner.workspace.id}/webhooks/`,
          headers: owner.admin.headers,
          payload: { url, events: ['unit.created'] },
        });
      for (const url of [
        'http://192.0.2.1/hook', // TEST-NET-1 (documentation)
        'http://198.51.100.7/hook', // TEST-NET-2
        'http://203.0.113.5/hook', // TEST-NET-3
        'http://198.18.0.1/hook', // benchmarking
        'http://100.64.0.1/hook', // carrier-grade NAT
        'http://192.88.99.1/hook', // 6to4 relay anycast
        'http://255.255.255.255/hook',
        'http://[::127.0.0.1]/hook', // IPv4-compatible loopback
        'http://[::]/hook',
        'http://[64:ff9b::7f00:1]/hook', // NAT64 of 127.0.0.1
        'http://[64:ff9b:1::a00:1]/hook', // local-use NAT64
        'http://[2002:7f00:1::1]/hook', // 6to4 of 127.0.0.1
        'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', // Teredo
        'http://[2001:db8::1]/hook', // documentation
        'http://[fec0::1]/hook', // site-local
        'http://[::ffff:10.0.0.1]/hook',
        'http://[::ffff:192.0.2.1]/hook',
        ...own, // this machine's own addresses
      ]) {
        const response = await post(url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json(), url).toEqual({
          url: ['This address is private or local: webhooks may only call public addresses.'],
        });
      }
      for (const url of ['http://8.8.8.8/hook', 'https://[2606:4700:4700::1111]/hook', 'http://[::ffff:1.1.1.1]/x']) {
        expect((await post(url)).statusCode, url).toBe(201);
      }
    } finally {
      await strict.close();
    }
  });

  test('an answer is read up to the 2 KB kept, not whole', async () => {
    // 100 MB offered, written as fast as the dispatcher reads (backpressure): what it reads is sent.
    const offered = 100 * 1024 * 1024;
    let written = 0;
    let closed = false;
    const server = http.createServer((request, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': offered });
      response.on('close', () => (closed = true));
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (written < offered && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/big`;
    try {
      const hook = await addWebhook({ url }, ['unit.created']);
      expect((await as(t, team.admin)('POST', `/api/webhooks/${hook.id}/ping/`)).statusCode).toBe(201);
      const delivery = await vi.waitFor(
        async () => {
          const [row] = await deliveriesOf(hook);
          expect(row?.status).toBe('succeeded');
          return row!;
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(delivery.response_excerpt).toHaveLength(2048);
      await vi.waitFor(() => expect(closed).toBe(true));
      // Socket buffers hold a few MB at most; the whole answer was read before.
      expect(written).toBeLessThan(16 * 1024 * 1024);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('one workspace cannot hold up the others', () => {
  test(`a workspace has at most ${Limits.webhooks.perWorkspace} webhooks`, async () => {
    const own = await buildTeam(t);
    const receiver = { url: 'http://127.0.0.1:9/hook' };
    for (let i = 0; i < Limits.webhooks.perWorkspace; i++)
      await addWebhook(receiver, ['unit.deleted'], own.workspace.id, own);
    const over = await as(t, own.admin)('POST', `/api/workspaces/${own.workspace.id}/webhooks/`, {
      url: receiver.url,
      events: ['unit.deleted'],
    });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({
      detail: `A workspace may have at most ${Limits.webhooks.perWorkspace} webhooks.`,
    });
    // Another workspace is not counted with it.
    const other = await buildTeam(t);
    await addWebhook(receiver, ['unit.deleted'], other.workspace.id, other);
  });

  test("30 webhooks of workspace A to a silent receiver delay workspace B's delivery by less than 1 s", async () => {
    const silent = await startSilentReceiver();
    const answering = await startReceiver();
    const a = await buildTeam(t);
    const b = await buildTeam(t);
    try {
      for (let i = 0; i < 30; i++) await addWebhook(silent, ['unit.created', 'task.created'], a.workspace.id, a);
      await addWebhook(answering, ['unit.created'], b.workspace.id, b);
      // A: 3 units with 2 tasks each, 270 deliveries to a receiver that never answers.
      const flowA = await buildFlow(t, { workspace: a.workspace, stages: [{}, {}] });
      for (let i = 0; i < 3; i++) await buildUnit(t, a.owner, flowA);
      // A's tries under way at once: at most 2 a webhook and 10 for the workspace.
      await vi.waitFor(() => expect(silent.mostWaiting()).toBe(10), { timeout: 10_000 });

      const flowB = await buildFlow(t, { workspace: b.workspace, stages: [{}] });
      const asked = performance.now();
      await buildUnit(t, b.owner, flowB);
      // From the change's answer (it has committed) to the delivery's arrival (0 when it came first).
      const answered = performance.now();
      await answering.waitFor(1, (r) => r.json.event === 'unit.created', 15_000);
      const delayMs = performance.now() - answered;
      // eslint-disable-next-line no-console -- the delay is the point of this test
      console.info(
        `B's delivery behind A's 30 silent webhooks: ${Math.round(delayMs)} ms after the answer ` +
          `(the change took ${Math.round(answered - asked)} ms) on ${t.database.kind}`,
      );
      expect(delayMs).toBeLessThan(1000);
      expect(silent.mostWaiting()).toBe(10);
    } finally {
      await t.database.db.delete(schema.webhooks).where(eq(schema.webhooks.workspaceId, a.workspace.id));
      await silent.close();
      await answering.close();
    }
  });

  test('failed tries in a row pause a webhook, its admins are told, and resuming sends what was held', async () => {
    let failing = true;
    const receiver = await startReceiver(() => (failing ? 500 : 200));
    const own = await buildTeam(t);
    try {
      const hook = await addWebhook(receiver, ['unit.created'], own.workspace.id, own);
      const flow = await buildFlow(t, { workspace: own.workspace, stages: [{}] });
      // 4 deliveries of 8 tries each could make 32 tries; the 20th failure in a row pauses it.
      for (let i = 0; i < 4; i++) await buildUnit(t, own.owner, flow);
      const paused = await vi.waitFor(
        async () => {
          const current = (await as(t, own.admin)('GET', `/api/webhooks/${hook.id}/`)).json<TWebhook>();
          expect(current.paused_at).not.toBe(null);
          return current;
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(paused.active).toBe(true);
      const notified = await t.database.db
        .select({ userId: schema.notifications.userId })
        .from(schema.notifications)
        .where(
          and(eq(schema.notifications.kind, 'webhook_paused'), eq(schema.notifications.workspaceId, own.workspace.id)),
        );
      expect(notified.map((n) => n.userId).sort()).toEqual([own.owner.id, own.admin.id].sort());
      // Paused: nothing more is tried (at most the 2 under way when it paused end).
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const tried = receiver.received.length;
      expect(tried).toBeGreaterThanOrEqual(Limits.webhooks.pauseAfterFailures);
      expect(tried).toBeLessThanOrEqual(Limits.webhooks.pauseAfterFailures + 2);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(receiver.received.length).toBe(tried);
      const held = (await deliveriesOf(hook, own)).filter((d) => d.status === 'pending');
      expect(held.length).toBeGreaterThan(0);

      failing = false;
      expect((await as(t, own.member)('POST', `/api/webhooks/${hook.id}/resume/`)).statusCode).toBe(403);
      const resumed = await as(t, own.admin)('POST', `/api/webhooks/${hook.id}/resume/`);
      expect(resumed.json<TWebhook>()).toMatchObject({ paused_at: null, active: true });
      await vi.waitFor(
        async () => {
          const rows = await deliveriesOf(hook, own);
          expect(rows.filter((d) => d.status === 'succeeded').length).toBe(held.length);
        },
        { timeout: 10_000, interval: 100 },
      );
    } finally {
      await receiver.close();
    }
  });

  test('a batch of units sends ONE unit.batch_created, not one event per unit and task', async () => {
    const receiver = await startReceiver();
    const own = await buildTeam(t);
    try {
      const hook = await addWebhook(receiver, ['unit.created', 'task.created'], own.workspace.id, own);
      const flow = await buildFlow(t, { workspace: own.workspace, stages: [{}, {}] });
      const batch = await as(t, own.member)('POST', '/api/units/batch/', {
        project: flow.project.id,
        pipeline: flow.pipeline.id,
        template: 'Shot {count}',
        count: 200,
        start: 1,
        step: 1,
      });
      expect(batch.statusCode, batch.body.slice(0, 300)).toBe(201);
      const units = batch.json<{ units: { id: number }[] }>().units.map((unit) => unit.id);
      const [event] = await receiver.waitFor(1);
      expect(event!.json).toMatchObject({
        event: 'unit.batch_created',
        workspace: own.workspace.id,
        data: { project: flow.project.id, pipeline: flow.pipeline.id, count: 200, units },
      });
      expect(new Webhook(hook.secret).verify(event!.body, headersOf(event!))).toMatchObject({
        event: 'unit.batch_created',
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(receiver.received).toHaveLength(1);
      expect(await deliveriesOf(hook, own)).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });
});

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!onPostgres)('two server processes on one PostgreSQL', () => {
  let shared: Awaited<ReturnType<typeof sharedPostgresDatabase>> | undefined;
  afterAll(async () => {
    await killServers();
    await shared?.drop();
  });

  test('each delivery reaches the receiver exactly once', { timeout: 120_000 }, async () => {
    shared = await sharedPostgresDatabase();
    const receiver = await startReceiver();
    try {
      const db = shared.database.db;
      const [owner] = await db
        .insert(schema.users)
        .values({ username: `hooks${Date.now()}`, email: `hooks${Date.now()}@example.com`, emailVerified: true })
        .returning();
      const [workspace] = await db.insert(schema.workspaces).values({ name: 'Two', ownerId: owner!.id }).returning();
      await db.insert(schema.webhooks).values({
        workspaceId: workspace!.id,
        url: receiver.url,
        events: ['unit.created'],
        secret: 'whsec_test',
      });
      const env = { DATABASE_URL: shared.url, WEBHOOKS_ALLOW_PRIVATE: 'true' };
      await Promise.all([startServer(env), startServer(env)]);
      // Changes committed while both dispatchers listen: 30 events in three transactions.
      for (let round = 0; round < 3; round++) {
        await db.transaction(async (tx) =>
          emitWebhookEvents(
            tx,
            workspace!.id,
            Array.from({ length: 10 }, (_, i) => ({ event: 'unit.created' as const, data: { n: round * 10 + i } })),
          ),
        );
      }
      await receiver.waitFor(30, () => true, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const ids = receiver.received.map((r) => r.json.delivery);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
      const rows = await db.select({ status: schema.webhookDeliveries.status }).from(schema.webhookDeliveries);
      expect(rows.every((row) => row.status === 'succeeded')).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});
