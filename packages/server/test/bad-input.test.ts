import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ErrorStatus } from '@stageline/shared';
import { buildTestApp, type TestApp } from './helpers';
import { relaxedLimits } from './accounts';
import { buildComment } from './live';
import { buildNotification } from './notifications';
import { buildFlow, buildUnit, setStatus, taskAt } from './units';
import { buildTeam, type Team } from './workspaces';

/**
 * The bad-input sweep (docs/security.md): every operation of the served OpenAPI document gets
 * generated bad input — wrong types, missing fields, 1 MB strings, NUL characters, huge, negative
 * and non-decimal ids, arrays for objects, invalid JSON, other content types — as the signed-in
 * owner of a populated workspace. No answer may be a 5xx, and every refusal must have one of the
 * error shapes: `{"detail", "code"}` with the code's status, or `{"field": ["message"]}`.
 *
 * `npm test` runs a seeded sample of each operation's variants (well under a minute);
 * `BAD_INPUT_SWEEP=full` runs them all, `BAD_INPUT_SEED=n` another sample.
 */

const full = process.env.BAD_INPUT_SWEEP === 'full';
const seed = Number(process.env.BAD_INPUT_SEED ?? 20261123);
const perOperation = 14;

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  nullable?: boolean;
};
type Parameter = { name: string; in: 'path' | 'query'; schema?: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
type Variant = { name: string; path: Record<string, string>; query: string; body?: string | Buffer; type?: string };

/** mulberry32: a small seeded generator, so a failing sample can be run again. */
function random(state: number) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const megabyte = 'x'.repeat(1024 * 1024);
const deepArray = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

/** Values no field of that kind should take. */
const badValues: [string, unknown][] = [
  ['null', null],
  ['an object', { nested: { deeper: true } }],
  ['an array', [1, 'two', null]],
  ['a 1 MB string', megabyte],
  ['a NUL string', 'a\u0000b'],
  ['an empty string', ''],
  ['a huge number', 1e300],
  ['past int32', 2_147_483_648],
  ['negative', -1],
  ['a fraction', 1.5],
  ['true', true],
  ['a hex string', '0x10'],
  ['a numeric string', '12'],
];

/** Strings for path and query parameters. */
const badParams: [string, string][] = [
  ['huge', '99999999999999999999'],
  ['past int32', '2147483648'],
  ['negative', '-1'],
  ['zero', '0'],
  ['hex', '0x10'],
  ['exponent', '1e3'],
  ['a fraction', '1.5'],
  ['NUL', '%00'],
  ['a NUL inside', 'a%00b'],
  ['letters', 'abc'],
  ['10 KB', 'y'.repeat(10_240)],
  ['unicode', '%F0%9F%92%A5'],
  ['a broken escape', '%E0%A4%A'],
];

/** A plausible value of a schema: the base that one bad field at a time is put into. */
function plausible(schema: JsonSchema | undefined, ids: Record<string, number>, name = ''): unknown {
  if (!schema) return 'x';
  if (schema.enum) return schema.enum[0];
  const choice = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (choice) return plausible(choice, ids, name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return ids[name] ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [plausible(schema.items, ids, name)];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([key, value]) => [key, plausible(value, ids, key)]),
      );
    default:
      return 'x';
  }
}

/** Every variant of one operation: path, query and body, one bad thing at a time. */
function variantsOf(operation: Operation, pathParams: Record<string, string>, ids: Record<string, number>): Variant[] {
  const variants: Variant[] = [];
  const parameters = operation.parameters ?? [];
  const base = { path: pathParams, query: '' };
  for (const param of parameters.filter((p) => p.in === 'path')) {
    for (const [name, value] of badParams) {
      variants.push({ ...base, name: `path ${param.name}: ${name}`, path: { ...pathParams, [param.name]: value } });
    }
  }
  for (const param of parameters.filter((p) => p.in === 'query')) {
    for (const [name, value] of badParams) {
      variants.push({ ...base, name: `query ${param.name}: ${name}`, query: `${param.name}=${value}` });
    }
    variants.push({ ...base, name: `query ${param.name}: repeated`, query: `${param.name}=1&${param.name}=2` });
  }
  const schema = operation.requestBody?.content?.['application/json']?.schema;
  if (schema) {
    const body = plausible(schema, ids);
    const json = (value: unknown) => JSON.stringify(value);
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      for (const key of Object.keys(schema.properties ?? {})) {
        for (const [name, value] of badValues) {
          variants.push({ ...base, name: `body ${key}: ${name}`, body: json({ ...body, [key]: value }) });
        }
        const rest: Record<string, unknown> = { ...body };
        delete rest[key];
        variants.push({ ...base, name: `body without ${key}`, body: json(rest) });
      }
      variants.push({ ...base, name: 'body with a NUL key', body: json({ ...body, 'a\u0000b': 1 }) });
    }
    for (const [name, raw] of [
      ['an empty object', '{}'],
      ['an array', '[]'],
      ['null', 'null'],
      ['a string', '"text"'],
      ['invalid JSON', '{"a":'],
      ['nested 100,000 deep', deepArray],
      ['empty', ''],
      ['over the 1 MB limit', json({ text: megabyte + megabyte })],
    ] as const) {
      variants.push({ ...base, name: `body: ${name}`, body: raw });
    }
  }
  // Content types the API does not take, on any operation.
  const some = schema ? JSON.stringify(plausible(schema, ids)) : '{"a":1}';
  variants.push({ ...base, name: 'text/plain', body: some, type: 'text/plain' });
  variants.push({ ...base, name: 'XML', body: '<a>1</a>', type: 'application/xml' });
  variants.push({
    ...base,
    name: 'UTF-16 JSON',
    body: Buffer.from(some, 'utf16le'),
    type: 'application/json; charset=utf-16',
  });
  variants.push({ ...base, name: 'multipart without boundary', body: some, type: 'multipart/form-data' });
  variants.push({ ...base, name: 'form encoded', body: 'a=1&b=%00', type: 'application/x-www-form-urlencoded' });
  return variants;
}

/** Whether a refusal has one of the API's error shapes. */
function errorShapeProblem(status: number, body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'not a JSON object';
  const record = body as Record<string, unknown>;
  if (typeof record.detail === 'string' && typeof record.code === 'string') {
    if (!(record.code in ErrorStatus)) return `unknown code ${record.code}`;
    if (ErrorStatus[record.code as keyof typeof ErrorStatus] !== status) return `code ${record.code} with ${status}`;
    return record.detail ? undefined : 'an empty detail';
  }
  const fields = Object.entries(record);
  if (fields.length === 0) return 'an empty object';
  for (const [field, messages] of fields) {
    if (!Array.isArray(messages) || messages.length === 0) return `field ${field} without messages`;
    if (!messages.every((message) => typeof message === 'string' && message.length > 0)) {
      return `field ${field} with a message that is not text`;
    }
  }
  return status === 400 ? undefined : `field errors with ${status}`;
}

/** Calls that end the fixture or the session: swept last, so the rest sees a whole workspace. */
const destructive = /\/(leave|delegate|logout)\/$|^DELETE /;

let t: TestApp;
let team: Team;
let pathFor: (path: string, param: string) => string;
let ids: Record<string, number>;

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
  team = await buildTeam(t);
  const flow = await buildFlow(t, { workspace: team.workspace, stages: [{ reviewers: [team.owner] }, {}], edges: [] });
  const unit = await buildUnit(t, team.owner, flow);
  const task = taskAt(unit, flow, 0);
  await setStatus(t, [task], 'review');
  const comment = await buildComment(t, team.owner, { task }, 'A comment to edit');
  const notification = await buildNotification(t, { user: team.owner, kind: 'invited' });
  const sessionId = (
    JSON.parse(Buffer.from(team.owner.tokens.access.split('.')[1]!, 'base64url').toString()) as { sid: number }
  ).sid;
  const bySegment: Record<string, number> = {
    workspaces: team.workspace.id,
    projects: flow.project.id,
    pipelines: flow.pipeline.id,
    stages: flow.stages[0]!,
    units: unit.id,
    tasks: task,
    comments: comment.id,
    notifications: notification,
    sessions: sessionId,
    users: team.owner.id,
  };
  ids = {
    workspace: team.workspace.id,
    project: flow.project.id,
    pipeline: flow.pipeline.id,
    unit: unit.id,
    task,
    user: team.member.id,
  };
  pathFor = (path, param) => {
    if (param === 'provider') return 'github';
    if (param === 'key' || param === 'token') return 'no-such-key';
    if (param === 'inviteId') return '1';
    const segments = path.split('/');
    const owner = segments[segments.indexOf(`{${param}}`) - 1] ?? '';
    return String(bySegment[owner] ?? 1);
  };
});
afterAll(async () => {
  await t?.close();
});

describe('the bad-input sweep', () => {
  test('no 5xx and only error shapes, for every operation of the OpenAPI document', { timeout: 120_000 }, async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const operations = Object.entries(document.paths)
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ path, method, operation })))
      // An event stream with good input stays open: only its query is swept (below).
      .filter(({ path }) => path !== '/api/events/')
      .sort(
        (a, b) =>
          Number(destructive.test(`${a.method.toUpperCase()} ${a.path}`)) -
          Number(destructive.test(`${b.method.toUpperCase()} ${b.path}`)),
      );
    expect(operations.length).toBeGreaterThan(60);

    const failures: string[] = [];
    // The event stream refuses bad resume points before it opens.
    for (const [, value] of badParams.filter(([name]) => !['zero', 'past int32'].includes(name))) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/events/?last_event_id=${value}`,
        headers: team.owner.headers,
      });
      if (response.statusCode !== 400)
        failures.push(`GET /api/events/ last_event_id=${value.slice(0, 20)}: ${response.statusCode}`);
    }
    const next = random(seed);
    let sent = 0;
    for (const { path, method, operation } of operations) {
      const pathParams = Object.fromEntries(
        (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => [p.name, pathFor(path, p.name)]),
      );
      let variants = variantsOf(operation, pathParams, ids);
      if (!full) {
        variants = variants
          .map((variant) => ({ variant, order: next() }))
          .sort((a, b) => a.order - b.order)
          .slice(0, perOperation)
          .map(({ variant }) => variant);
      }
      for (const variant of variants) {
        const url =
          path.replace(/\{(\w+)\}/g, (_, name: string) => variant.path[name] ?? '1') +
          (variant.query ? `?${variant.query}` : '');
        const headers: Record<string, string> = { ...team.owner.headers };
        if (variant.body !== undefined) headers['content-type'] = variant.type ?? 'application/json';
        const response = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers,
          payload: variant.body,
        });
        sent += 1;
        const where = `${method.toUpperCase()} ${path} — ${variant.name}`;
        if (response.statusCode >= 500) {
          failures.push(`${where}: ${response.statusCode} ${response.body.slice(0, 200)}`);
          continue;
        }
        if (response.statusCode < 400) continue;
        let body: unknown;
        try {
          body = response.json();
        } catch {
          failures.push(`${where}: ${response.statusCode} with a body that is not JSON`);
          continue;
        }
        const problem = errorShapeProblem(response.statusCode, body);
        if (problem) failures.push(`${where}: ${response.statusCode} ${problem}: ${response.body.slice(0, 200)}`);
      }
    }
    expect(sent).toBeGreaterThan(operations.length * 5);
    expect(failures).toEqual([]);
  });
});
