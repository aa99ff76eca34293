// One file for the feature's HTTP journeys (definitions, values, filters, sorts, views, CSV, webhooks) on one app.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TMatrixPage, TUnit, TUnitList, TView, TWholeMatrixAnswer } from '@stageline/shared';
import type { TFieldDefinition } from '@stageline/shared/fields';
import { eq } from 'drizzle-orm';
import { countStatements, schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildFlow, buildUnit, type Flow } from '../../../test/units';
import { as, buildTeam, type Team } from '../../../test/workspaces';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

const difficulty = {
  key: 'difficulty',
  name: 'Difficulty',
  kind: 'select',
  options: [
    { id: 'easy', label: 'Easy', color: '#2f9e44' },
    { id: 'medium', label: 'Medium', color: '#f08c00' },
    { id: 'hard', label: 'Hard', color: '#e03131' },
  ],
};

async function define(team: Team, flow: Flow, body: object): Promise<TFieldDefinition> {
  const response = await as(t, team.admin)('POST', `/api/projects/${flow.project.id}/fields/`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<TFieldDefinition>();
}

/** A project with Frames (number, fr), Difficulty (select), Tags (multi-select), Owner (person), Due, Done, Notes. */
async function setup() {
  const team = await buildTeam(t);
  const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
  const frames = await define(team, flow, { key: 'frames', name: 'Frames', kind: 'number', unit: 'fr' });
  await define(team, flow, difficulty);
  await define(team, flow, {
    key: 'tags',
    name: 'Tags',
    kind: 'multi_select',
    options: [
      { id: 'fx', label: 'FX', color: '#1971c2' },
      { id: 'crowd', label: 'Crowd', color: '#9c36b5' },
    ],
  });
  await define(team, flow, { key: 'owner', name: 'Owner', kind: 'person' });
  await define(team, flow, { key: 'delivery', name: 'Delivery', kind: 'date' });
  await define(team, flow, { key: 'done', name: 'Done', kind: 'checkbox' });
  await define(team, flow, { key: 'notes', name: 'Notes', kind: 'long_text' });
  await define(team, flow, { key: 'client_ref', name: 'Client ref', kind: 'text' });
  await define(team, flow, { key: 'link', name: 'Link', kind: 'url' });
  return { team, flow, frames };
}

const patch = (team: Team, unit: { id: number }, fields: object, user = team.member) =>
  as(t, user)('PATCH', `/api/units/${unit.id}/`, { fields });

describe('field definitions', () => {
  test('Admins define, list, change and archive; everyone who sees the project lists; others 403/404', async () => {
    const { team, flow, frames } = await setup();
    expect(frames).toMatchObject({
      key: 'frames',
      kind: 'number',
      unit: 'fr',
      position: 0,
      archived: false,
      applies_to: 'unit',
    });
    const url = `/api/projects/${flow.project.id}/fields/`;
    const listed = await as(t, team.guest)('GET', url);
    expect(listed.statusCode).toBe(200);
    expect(listed.json<TFieldDefinition[]>().map((f) => f.key)).toEqual([
      'frames',
      'difficulty',
      'tags',
      'owner',
      'delivery',
      'done',
      'notes',
      'client_ref',
      'link',
    ]);
    expect((await as(t, team.outsider)('GET', url)).statusCode).toBe(404);
    expect((await as(t, null)('GET', url)).statusCode).toBe(401);
    const body = { key: 'episode', name: 'Episode', kind: 'text' };
    expect((await as(t, team.member)('POST', url, body)).statusCode).toBe(403);
    expect((await as(t, team.outsider)('POST', url, body)).statusCode).toBe(404);
    expect((await as(t, team.owner)('POST', url, body)).statusCode).toBe(201);

    const field = `/api/fields/${frames.id}/`;
    expect((await as(t, team.member)('PATCH', field, { name: 'x' })).statusCode).toBe(403);
    expect((await as(t, team.outsider)('PATCH', field, { name: 'x' })).statusCode).toBe(404);
    const renamed = await as(t, team.admin)('PATCH', field, { name: 'Frame count', position: 5, required: true });
    expect(renamed.json<TFieldDefinition>()).toMatchObject({ name: 'Frame count', position: 5, required: true });
    const archived = await as(t, team.admin)('PATCH', field, { archived: true });
    expect(archived.json<TFieldDefinition>().archived).toBe(true);
    const active = await as(t, team.guest)('GET', `${url}?archived=false`);
    expect(active.json<TFieldDefinition[]>().map((f) => f.key)).not.toContain('frames');
    const old = await as(t, team.guest)('GET', `${url}?archived=true`);
    expect(old.json<TFieldDefinition[]>().map((f) => f.key)).toEqual(['frames']);
  });

  test('bad definitions: a taken or odd key, options on a number, a select without options, a bad default', async () => {
    const { team, flow } = await setup();
    const url = `/api/projects/${flow.project.id}/fields/`;
    const post = (body: object) => as(t, team.admin)('POST', url, body);
    const taken = await post({ key: 'frames', name: 'Again', kind: 'number' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual({ key: ['A field with this key already exists in the project.'] });
    const odd = await as(t, team.admin)('POST', url, { key: 'Frames!', name: 'x', kind: 'number' });
    expect(odd.statusCode).toBe(400);
    expect(Object.keys(odd.json())).toEqual(['key']);
    const ru = await t.app.inject({
      method: 'POST',
      url,
      payload: { key: 'frames', name: 'x', kind: 'number' },
      headers: { ...team.admin.headers, 'accept-language': 'ru' },
    });
    expect(ru.json<{ key: string[] }>().key[0]).toMatch(/[а-я]/);
    expect((await post({ key: 'n', name: 'n', kind: 'number', options: difficulty.options })).json()).toEqual({
      options: ['Only select fields have options.'],
    });
    expect((await post({ key: 's', name: 's', kind: 'select' })).json()).toEqual({
      options: ['Add at least one option.'],
    });
    expect((await post({ ...difficulty, key: 'd2', default: 'impossible' })).json()).toEqual({
      default: ['Choose one of the field’s options.'],
    });
    expect((await post({ key: 'k', name: 'k', kind: 'kind_of_nothing' })).statusCode).toBe(400);
  });
});

describe('values on units', () => {
  test('set through PATCH units/{id}/, cleared with null, kept by other updates, and defaults on create', async () => {
    const { team, flow } = await setup();
    await define(team, flow, { key: 'status_note', name: 'Note', kind: 'text', default: 'new' });
    const unit = await buildUnit(t, team.member, flow, 'Shot 010');
    expect(unit.fields).toEqual({ status_note: 'new' });
    const values = {
      frames: 120,
      difficulty: 'hard',
      tags: ['crowd', 'fx'],
      owner: team.member.id,
      delivery: '2026-12-24',
      done: true,
      notes: '# Plate\n\nclean up  ',
      client_ref: '  ABC-1 ',
      link: 'https://example.com/a',
    };
    const response = await patch(team, unit, values);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<TUnit>().fields).toEqual({
      ...values,
      tags: ['fx', 'crowd'],
      notes: '# Plate\n\nclean up',
      client_ref: 'ABC-1',
      status_note: 'new',
    });
    const renamed = await as(t, team.member)('PATCH', `/api/units/${unit.id}/`, { name: 'Shot 011' });
    expect(renamed.json<TUnit>().fields.frames).toBe(120);
    const cleared = await patch(team, unit, { frames: null, client_ref: '' });
    expect(cleared.json<TUnit>().fields).not.toHaveProperty('frames');
    expect(cleared.json<TUnit>().fields).not.toHaveProperty('client_ref');
    expect((await as(t, team.guest)('GET', `/api/units/${unit.id}/`)).json<TUnit>().fields.difficulty).toBe('hard');
    expect((await patch(team, unit, { frames: 1 }, team.guest)).statusCode).toBe(403);
    const listed = await as(t, team.guest)('GET', `/api/units/?project=${flow.project.id}`);
    expect(listed.json<TUnitList>().results[0]!.fields.difficulty).toBe('hard');
    // The whole matrix carries the values by unit id (units without values left out).
    const other = await buildUnit(t, team.member, flow, 'Shot 020');
    await patch(team, other, { status_note: null });
    const whole = await as(t, team.guest)('GET', `/api/units/matrix/whole/?pipeline=${flow.pipeline.id}`);
    expect(whole.json<TWholeMatrixAnswer>().fields).toEqual({ [unit.id]: cleared.json<TUnit>().fields });
  });

  test('bad values: a translated 400 naming each field, nothing stored', async () => {
    const { team, flow, frames } = await setup();
    const other = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    await define(team, other, { key: 'elsewhere', name: 'Elsewhere', kind: 'text' });
    const unit = await buildUnit(t, team.member, flow);
    const bad = await patch(team, unit, {
      frames: 'many',
      difficulty: 'impossible',
      tags: ['fx', 'nope'],
      owner: team.outsider.id,
      delivery: '2026-02-30',
      done: 'yes',
      link: 'javascript:alert(1)',
      elsewhere: 'x',
      'bad key/../': 1,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      'fields.frames': ['Enter a number.'],
      'fields.difficulty': ['Choose one of the field’s options.'],
      'fields.tags': ['Choose options of the field.'],
      'fields.owner': ['Choose a member of the workspace.'],
      'fields.delivery': ['Enter a date as YYYY-MM-DD.'],
      'fields.done': ['Enter true or false.'],
      'fields.link': ['Enter a web address starting with http:// or https://.'],
      'fields.elsewhere': ['No such field in this project.'],
      'fields.badkey': ['Use lower-case letters, digits and _ , starting with a letter.'],
    });
    const ru = await t.app.inject({
      method: 'PATCH',
      url: `/api/units/${unit.id}/`,
      payload: { fields: { frames: 'many' } },
      headers: { ...team.member.headers, 'accept-language': 'ru' },
    });
    expect(ru.json<Record<string, string[]>>()['fields.frames']![0]).toMatch(/[а-я]/);
    const huge = await patch(team, unit, { notes: 'x'.repeat(1_000_000) });
    expect(huge.statusCode).toBe(400);
    expect(huge.json()).toEqual({ 'fields.notes': ['Ensure this field has no more than 20000 characters.'] });
    const object = await patch(team, unit, { frames: { nested: true } });
    expect(object.statusCode).toBe(400);
    expect(Object.keys(object.json())).toEqual(['fields.frames']);
    // Required: cannot be cleared, and a unit made without it (no default) is refused.
    await as(t, team.admin)('PATCH', `/api/fields/${frames.id}/`, { required: true });
    expect((await patch(team, unit, { frames: null })).json()).toEqual({ 'fields.frames': ['Field is required'] });
    const created = await as(t, team.member)('POST', '/api/units/', {
      project: flow.project.id,
      pipeline: flow.pipeline.id,
      name: 'Needs frames',
    });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual({ 'fields.frames': ['Field is required'] });
    expect((await patch(team, unit, { frames: 3 })).statusCode).toBe(200);
    // Archived fields take no new values.
    await as(t, team.admin)('PATCH', `/api/fields/${frames.id}/`, { archived: true, required: false });
    expect((await patch(team, unit, { frames: 4 })).json()).toEqual({
      'fields.frames': ['No such field in this project.'],
    });
    const stored = await as(t, team.member)('GET', `/api/units/${unit.id}/`);
    expect(stored.json<TUnit>().fields).toEqual({ frames: 3 });
  });
});

describe('filter and sort', () => {
  async function populated() {
    const setupResult = await setup();
    const { team, flow } = setupResult;
    const specs: [string, object][] = [
      [
        'A',
        { frames: 300, difficulty: 'hard', tags: ['fx'], delivery: '2026-12-01', done: true, client_ref: 'acme-1' },
      ],
      ['B', { frames: 50, difficulty: 'easy', tags: ['crowd'], delivery: '2026-11-01', owner: team.member.id }],
      ['C', { frames: 120, difficulty: 'hard', tags: ['fx', 'crowd'], delivery: '2027-01-15', client_ref: 'ACME-2' }],
      ['D', { difficulty: 'medium' }],
      ['E', {}],
    ];
    for (const [name, fields] of specs) {
      const unit = await buildUnit(t, team.member, flow, name);
      expect((await patch(team, unit, fields)).statusCode).toBe(200);
    }
    return setupResult;
  }
  const names = (page: TMatrixPage) => page.rows.map((row) => row.unit.name);

  test('the matrix filters on each kind and sorts on a field, with key paging', async () => {
    const { team, flow } = await populated();
    const matrix = async (query: string) => {
      const response = await as(t, team.guest)('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}&${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<TMatrixPage>();
    };
    const hard = await matrix('field.difficulty=hard&sort=field.frames');
    expect(names(hard)).toEqual(['C', 'A']);
    expect(hard.count).toBe(2);
    expect(hard.rows[0]!.unit.fields).toMatchObject({ frames: 120, difficulty: 'hard' });
    expect(names(await matrix('field.difficulty=hard,easy&sort=-field.frames'))).toEqual(['A', 'C', 'B']);
    expect(names(await matrix('field.frames=100..&sort=name'))).toEqual(['A', 'C']);
    expect(names(await matrix('field.frames=..120'))).toEqual(['B', 'C']);
    expect(names(await matrix('field.frames=120'))).toEqual(['C']);
    expect(names(await matrix('field.delivery=2026-11-15..2026-12-31'))).toEqual(['A']);
    expect(names(await matrix('field.tags=crowd'))).toEqual(['B', 'C']);
    expect(names(await matrix('field.owner=me'))).toEqual([]);
    expect(names(await matrix(`field.owner=${team.member.id}`))).toEqual(['B']);
    expect(names(await matrix('field.done=true'))).toEqual(['A']);
    expect(names(await matrix('field.done=false'))).toEqual(['B', 'C', 'D', 'E']);
    expect(names(await matrix('field.client_ref=acme'))).toEqual(['A', 'C']);
    expect(names(await matrix('sort=field.frames'))).toEqual(['B', 'C', 'A', 'D', 'E']);
    expect(names(await matrix('sort=field.difficulty'))).toEqual(['B', 'D', 'A', 'C', 'E']);
    // Descending: units without a value first, ties by id backwards.
    expect(names(await matrix('sort=-field.delivery'))).toEqual(['E', 'D', 'C', 'A', 'B']);
    // Pages by key in a field's sort: the same order, page by page.
    const seen: string[] = [];
    let after = '';
    for (let i = 0; i < 5; i++) {
      const page = await matrix(`sort=field.frames&limit=2${after}`);
      seen.push(...names(page));
      if (!page.next_cursor) break;
      after = `&after=${page.next_cursor}`;
    }
    expect(seen).toEqual(['B', 'C', 'A', 'D', 'E']);
  });

  test('bad filters and sorts: 400 naming the field', async () => {
    const { team, flow } = await populated();
    const get = (query: string) => as(t, team.guest)('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}&${query}`);
    const cases: [string, Record<string, string[]>][] = [
      ['field.nope=1', { 'field.nope': ['No such field in this project.'] }],
      ['field.frames=many', { 'field.frames': ['Invalid filter for this field.'] }],
      ['field.frames=1..2..3', { 'field.frames': ['Invalid filter for this field.'] }],
      ['field.difficulty=impossible', { 'field.difficulty': ['Choose one of the field’s options.'] }],
      ['field.delivery=tomorrow', { 'field.delivery': ['Invalid filter for this field.'] }],
      ['field.done=maybe', { 'field.done': ['Enter true or false.'] }],
      ['field.Bad%20Key=1', { 'field.BadKey': ['Use lower-case letters, digits and _ , starting with a letter.'] }],
      ['sort=field.nope', { sort: ['No such field in this project.'] }],
      ['sort=field.tags', { sort: ['This field cannot be sorted.'] }],
    ];
    for (const [query, body] of cases) {
      const response = await get(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toEqual(body);
    }
    expect((await get('sort=field.frames&after=WyJ4IiwxXQ')).statusCode).toBe(400);
  });

  test('GET units/ filters by field; a saved view keeps field filters and sort', async () => {
    const { team, flow } = await populated();
    const list = await as(t, team.guest)('GET', `/api/units/?project=${flow.project.id}&field.difficulty=hard`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json<TUnitList>().results.map((u) => u.name)).toEqual(['A', 'C']);
    expect(list.json<TUnitList>().count).toBe(2);
    const everywhere = await as(t, team.guest)('GET', '/api/units/?field.difficulty=hard');
    expect(everywhere.statusCode).toBe(400);
    const view = await as(t, team.member)('POST', '/api/views/', {
      project: flow.project.id,
      name: 'Hard shots',
      filters: { pipeline: String(flow.pipeline.id), 'field.difficulty': 'hard' },
      sort: '-field.frames',
    });
    expect(view.statusCode, view.body).toBe(201);
    expect(view.json<TView>()).toMatchObject({ filters: { 'field.difficulty': 'hard' }, sort: '-field.frames' });
  });

  test('statements: the plain matrix page stays at 3; a field filter or sort adds one (the definitions)', async () => {
    const { team, flow } = await populated();
    const count = async (query: string) =>
      (
        await countStatements(() =>
          as(t, team.member)('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}${query}`),
        )
      ).statements;
    expect(await count('')).toBe(3);
    expect(await count('&field.difficulty=hard')).toBe(4);
    expect(await count('&sort=field.frames&field.frames=1..')).toBe(4);
  });
});

describe('CSV', () => {
  function upload(team: Team, flow: Flow, file: string, dryRun: boolean) {
    const boundary = `----fields${Math.random().toString(36).slice(2)}`;
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload =
      part('project', String(flow.project.id)) +
      part('pipeline', String(flow.pipeline.id)) +
      part('dry_run', String(dryRun)) +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="units.csv"\r\n\r\n${file}\r\n--${boundary}--\r\n`;
    return t.app.inject({
      method: 'POST',
      url: '/api/units/import/',
      payload,
      headers: { ...team.member.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
  }

  test('an import fills fields by column name; a bad cell names its line and field; the export writes them back', async () => {
    const { team, flow } = await setup();
    const bad = await upload(team, flow, 'name,Frames,Difficulty\nShot 1,96,Easy\nShot 2,many,Hard\n', true);
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ errors: { line: number; field: string; message: string }[] }>().errors).toEqual([
      { line: 3, field: 'Frames', message: 'Enter a number.' },
    ]);
    const file = `name,Frames,difficulty,Tags,Owner,Done\nShot 1,96,Easy,FX; crowd,${team.member.username},yes\nShot 2,"1 240,5",hard,,,\n`;
    const dry = await upload(team, flow, file, true);
    expect(dry.json(), dry.body).toMatchObject({ created: 2, dry_run: true });
    const units = await as(t, team.member)('GET', `/api/units/?project=${flow.project.id}`);
    expect(units.json<TUnitList>().count).toBe(0);
    const done = await upload(team, flow, file, false);
    expect(done.json(), done.body).toMatchObject({ created: 2, dry_run: false });
    const listed = (await as(t, team.member)('GET', `/api/units/?project=${flow.project.id}`)).json<TUnitList>();
    expect(listed.results.map((u) => u.fields)).toEqual([
      { frames: 96, difficulty: 'easy', tags: ['fx', 'crowd'], owner: team.member.id, done: true },
      { frames: 1240.5, difficulty: 'hard' },
    ]);
    const exported = await as(t, team.member)('GET', `/api/pipelines/${flow.pipeline.id}/export.csv`);
    const [header, first] = exported.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toContain('description,Frames,Difficulty,Tags,Owner,Delivery,Done,Notes,Client ref,Link,');
    expect(first).toContain(`,96,Easy,"FX; Crowd",${team.member.username},,true,,,`);
  });
});

describe('webhooks', () => {
  test('unit.created and unit.deleted carry the unit’s fields', async () => {
    const { team, flow } = await setup();
    const [hook] = await t.database.db
      .insert(schema.webhooks)
      .values({
        workspaceId: team.workspace.id,
        url: 'http://127.0.0.1:9/hook',
        events: ['unit.created', 'unit.deleted'],
        secret: 'whsec_fields',
      })
      .returning({ id: schema.webhooks.id });
    const created = await as(t, team.member)('POST', '/api/units/', {
      project: flow.project.id,
      pipeline: flow.pipeline.id,
      name: 'Shot 010',
      fields: { frames: 24, difficulty: 'hard' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<TUnit>().fields).toEqual({ frames: 24, difficulty: 'hard' });
    expect((await as(t, team.admin)('DELETE', `/api/units/${created.json<TUnit>().id}/`)).statusCode).toBe(204);
    const deliveries = await t.database.db
      .select({ event: schema.webhookDeliveries.event, data: schema.webhookDeliveries.data })
      .from(schema.webhookDeliveries)
      .where(eq(schema.webhookDeliveries.webhookId, hook!.id));
    const fieldsOf = (event: string) =>
      (deliveries.find((d) => d.event === event)?.data as { unit: { fields: object } } | undefined)?.unit.fields;
    expect(fieldsOf('unit.created')).toEqual({ frames: 24, difficulty: 'hard' });
    expect(fieldsOf('unit.deleted')).toEqual({ frames: 24, difficulty: 'hard' });
  });
});
