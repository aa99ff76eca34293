import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helpers';
import { relaxedLimits } from '../../test/accounts';
import { act, buildFlow, buildUnit, setStatus, taskAt, type Flow } from '../../test/units';
import { buildTeam, type Team } from '../../test/workspaces';

/**
 * Input that used to reach the database and fail there as a 500 (docs/security.md): NUL characters
 * anywhere, broken multipart bodies, other charsets; and what the API accepted but should not:
 * tokens without an expiry and ids spelled in hex.
 */

const secretKey = 'input-guard-test-secret-of-32-characters';
const nul = 'bad\u0000name';
const nulError = ['Null characters are not allowed.'];

let t: TestApp;
let team: Team;
let flow: Flow;
let taskInReview: number;

beforeAll(async () => {
  t = await buildTestApp({ config: { secretKey }, authLimits: relaxedLimits });
  team = await buildTeam(t);
  flow = await buildFlow(t, { workspace: team.workspace, stages: [{ reviewers: [team.member] }], edges: [] });
  const unit = await buildUnit(t, team.owner, flow);
  taskInReview = taskAt(unit, flow, 0);
  await setStatus(t, [taskInReview], 'review');
});
afterAll(async () => {
  await t?.close();
});

const call = (
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = team.owner.headers,
) => t.app.inject({ method, url, payload: payload as object, headers });

describe('a NUL character is a 400 naming the field, never a 500', () => {
  test('in stored text of every kind', async () => {
    const cases: [string, () => ReturnType<typeof call>, string][] = [
      ['workspace name', () => call('POST', '/api/workspaces/', { name: nul }), 'name'],
      [
        'workspace description',
        () => call('POST', '/api/workspaces/', { name: 'ok', description: nul }),
        'description',
      ],
      ['project name', () => call('POST', '/api/projects/', { workspace: team.workspace.id, name: nul }), 'name'],
      [
        'pipeline description',
        () => call('POST', '/api/pipelines/', { project: flow.project.id, name: 'P', description: nul }),
        'description',
      ],
      [
        'unit name',
        () => call('POST', '/api/units/', { project: flow.project.id, pipeline: flow.pipeline.id, name: nul }),
        'name',
      ],
      [
        'batch template',
        () =>
          call('POST', '/api/units/batch/', {
            project: flow.project.id,
            pipeline: flow.pipeline.id,
            template: `Shot ${nul} {n}`,
            count: 2,
            start: 1,
            step: 1,
          }),
        'template',
      ],
      ['stage name', () => call('PATCH', `/api/stages/${flow.stages[0]}/`, { name: nul }), 'name'],
      ['comment', () => call('POST', '/api/comments/', { task: taskInReview, text: nul }), 'text'],
      ['accept comment', () => act(t, team.member, taskInReview, 'accept', { comment: nul }), 'comment'],
      ['reject comment', () => act(t, team.member, taskInReview, 'reject', { comment: nul }), 'comment'],
      [
        'invite entry',
        () => call('POST', `/api/workspaces/${team.workspace.id}/invite/`, { users: ['ok', nul], role: 'member' }),
        'users.1',
      ],
      ['login username', () => call('POST', '/api/users/login/', { username: nul, password: 'x' }, {}), 'username'],
      [
        'register first name',
        () =>
          call(
            'POST',
            '/api/users/register/',
            { username: 'nul-user', email: 'nul@example.com', password: 'long enough pass', first_name: nul },
            {},
          ),
        'first_name',
      ],
      ['a key of the body', () => call('PATCH', `/api/workspaces/${team.workspace.id}/`, { [nul]: 'x' }), 'badname'],
    ];
    for (const [what, send, field] of cases) {
      const response = await send();
      expect(response.statusCode, `${what}: ${response.body}`).toBe(400);
      expect(response.json(), what).toEqual({ [field]: nulError });
    }
  });

  test('in a graph save, the node named', async () => {
    const graph = (await call('GET', `/api/pipelines/${flow.pipeline.id}/`)).json<{
      version: number;
      nodes: { id: number; kind: string; name: string; x: number; y: number }[];
      edges: { source: number; target: number }[];
    }>();
    const nodes = graph.nodes.map((node, index) => ({ ...node, name: index === 2 ? nul : node.name }));
    const response = await call('PUT', `/api/pipelines/${flow.pipeline.id}/graph/`, { ...graph, nodes });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ 'nodes.2.name': nulError });
  });

  test('in the query and the path', async () => {
    const search = await call('GET', `/api/units/?pipeline=${flow.pipeline.id}&search=%00`);
    expect(search.statusCode).toBe(400);
    expect(search.json()).toEqual({ search: nulError });
    const matrix = await call('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}&search=a%00b`);
    expect(matrix.statusCode).toBe(400);
    const invite = await call('GET', '/api/invites/%00/');
    expect(invite.statusCode).toBe(400);
    expect(Object.values(invite.json<Record<string, string[]>>())).toEqual([nulError]);
  });

  test('in Russian too', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces/',
      payload: { name: nul },
      headers: { ...team.owner.headers, 'accept-language': 'ru' },
    });
    expect(response.json()).toEqual({ name: ['Нулевые символы недопустимы.'] });
  });
});

describe('broken uploads', () => {
  const upload = (headers: Record<string, string>, payload: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/users/me/avatar/',
      headers: { ...team.owner.headers, ...headers },
      payload,
    });

  test('multipart without a boundary, or cut short, is a 400', async () => {
    const noBoundary = await upload({ 'content-type': 'multipart/form-data' }, 'whatever');
    expect(noBoundary.statusCode).toBe(400);
    const cut = await upload(
      { 'content-type': 'multipart/form-data; boundary=XyZ' },
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
    );
    expect(cut.statusCode).toBe(400);
    expect(cut.json()).toEqual({ detail: 'The upload is not a valid multipart form.', code: 'bad_request' });
  });
});

describe('what the API no longer accepts', () => {
  test('a body in another charset than UTF-8 is a 415', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces/',
      headers: { ...team.owner.headers, 'content-type': 'application/json; charset=utf-16' },
      payload: Buffer.from(JSON.stringify({ name: 'Wide' }), 'utf16le'),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ detail: 'Send the request body in UTF-8.', code: 'unsupported_media_type' });
    const utf8 = await t.app.inject({
      method: 'POST',
      url: '/api/workspaces/',
      headers: { ...team.owner.headers, 'content-type': 'application/json; charset="UTF-8"' },
      payload: JSON.stringify({ name: 'Narrow' }),
    });
    expect(utf8.statusCode).toBe(201);
  });

  test('a JSON body that is not valid UTF-8 is a 400 and nothing is stored', async () => {
    const url = `/api/workspaces/${team.workspace.id}/`;
    const before = (await call('GET', url)).json<{ description: string }>().description;
    // A lone continuation byte, an overlong "/" and a truncated sequence: none of them is UTF-8.
    for (const bad of [[0x80], [0xc0, 0xaf], [0xe2, 0x82]]) {
      const payload = Buffer.concat([Buffer.from('{"description":"caf'), Buffer.from(bad), Buffer.from('"}')]);
      for (const [language, detail] of [
        ['en', 'The request body is not valid UTF-8.'],
        ['ru', 'Тело запроса не в корректной кодировке UTF-8.'],
      ] as const) {
        const response = await t.app.inject({
          method: 'PATCH',
          url,
          headers: { ...team.owner.headers, 'content-type': 'application/json', 'accept-language': language },
          payload,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ detail, code: 'parse_error' });
      }
    }
    expect((await call('GET', url)).json<{ description: string }>().description).toBe(before);
    // Valid UTF-8, a byte-order mark before it included, is read as before.
    const good = await t.app.inject({
      method: 'PATCH',
      url,
      headers: { ...team.owner.headers, 'content-type': 'application/json' },
      payload: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"description":"café ✓"}')]),
    });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({ description: 'café ✓' });
  });

  test('ids are decimal: hex, exponents, signs and spaces name nothing', async () => {
    const id = team.workspace.id;
    expect((await call('GET', `/api/workspaces/${id}/`)).statusCode).toBe(200);
    for (const spelled of [`0x${id.toString(16)}`, `${id}e0`, `+${id}`, `%20${id}`, `0b${id.toString(2)}`, `${id}.0`]) {
      expect((await call('GET', `/api/workspaces/${spelled}/`)).statusCode, spelled).toBe(404);
    }
    const query = await call('GET', `/api/projects/?workspace=0x${id.toString(16)}`);
    expect(query.statusCode).toBe(400);
  });

  test('an access token without an expiry is refused', async () => {
    const key = new TextEncoder().encode(secretKey);
    const claims = JSON.parse(Buffer.from(team.owner.tokens.access.split('.')[1]!, 'base64url').toString()) as {
      sub: string;
      sid: number;
    };
    const forever = await new SignJWT({ typ: 'access', sub: claims.sub, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .sign(key);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: { authorization: `Bearer ${forever}` },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'token_not_valid' });
    // The same claims with an expiry pass: the missing `exp` is what was refused.
    const expiring = await new SignJWT({ typ: 'access', sub: claims.sub, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: { authorization: `Bearer ${expiring}` },
    });
    expect(ok.statusCode).toBe(200);
  });
});
