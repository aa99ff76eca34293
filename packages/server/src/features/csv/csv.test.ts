import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TApiTokenCreated, TUnitImportResult } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { guardCell, unguardCell } from './format';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildFlow, buildUnit, setStatus, taskAt, type Flow } from '../../../test/units';
import { as, buildTeam, type Team } from '../../../test/workspaces';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

/** A multipart/form-data body: text fields, then the file (or the file first). */
function multipart(fields: Record<string, string | number>, file?: Buffer | string, { fileFirst = false } = {}) {
  const boundary = `----stageline${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (file !== undefined) {
    parts[fileFirst ? 'unshift' : 'push'](
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="units.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      typeof file === 'string' ? Buffer.from(file, 'utf8') : file,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function importAs(
  user: { headers: Record<string, string> } | null,
  flow: Flow,
  file: Buffer | string,
  { dryRun = false, language, fileFirst }: { dryRun?: boolean; language?: string; fileFirst?: boolean } = {},
) {
  const body = multipart({ project: flow.project.id, pipeline: flow.pipeline.id, dry_run: String(dryRun) }, file, {
    fileFirst,
  });
  return t.app.inject({
    method: 'POST',
    url: '/api/units/import/',
    payload: body.payload,
    headers: { ...(user?.headers ?? {}), ...body.headers, ...(language ? { 'accept-language': language } : {}) },
  });
}

async function unitNames(flow: Flow) {
  const rows = await t.database.db
    .select({ name: schema.units.name })
    .from(schema.units)
    .where(eq(schema.units.pipelineId, flow.pipeline.id));
  return rows.map((r) => r.name).sort();
}

/** Stage 0 ← stage 1 (stage 1 comes first in the flow although made second). */
async function reversedFlow(team: Team) {
  return buildFlow(t, {
    workspace: team.workspace,
    stages: [{ name: 'Animation' }, { name: 'Layout', assignees: [team.member], dueDate: '2026-12-31' }],
    edges: [
      ['root', 1],
      [1, 0],
      [0, 'end'],
    ],
  });
}

const records = (body: string): string[][] => parse(body.replace(/^\uFEFF/, ''), { relax_column_count: true });

describe('CSV export', () => {
  test('units in name order, stages in flow order, quotes, commas, line ends, Cyrillic, BOM', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    const tricky = 'Shot "A", take 2\nsecond line';
    for (const name of ['Shot 10', 'Shot 2', tricky, 'Шот 010', '=SUM(A1)'])
      await buildUnit(t, team.member, flow, name);

    const response = await as(t, team.guest)('GET', `/api/pipelines/${flow.pipeline.id}/export.csv`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="Pipeline.csv"; filename\*=UTF-8''Pipeline.csv$/,
    );
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(response.body).toContain('\r\n');
    const [header, ...rows] = records(response.body);
    expect(header).toEqual([
      'id',
      'name',
      'description',
      'Layout: status',
      'Layout: assignees',
      'Layout: due',
      'Animation: status',
      'Animation: assignees',
      'Animation: due',
    ]);
    const matrix = await as(t, team.guest)('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}`);
    const order = matrix.json<{ rows: { unit: { name: string } }[] }>().rows.map((r) => r.unit.name);
    expect(rows.map((r) => r[1])).toEqual(order.map((name) => (name.startsWith('=') ? `'${name}` : name)));
    expect(order.indexOf('Shot 2')).toBeLessThan(order.indexOf('Shot 10'));
    expect(rows.map((r) => r[1])).toContain(tricky);
    expect(rows.map((r) => r[1])).toContain('Шот 010');
    const shot = rows.find((r) => r[1] === 'Shot 2')!;
    expect(shot.slice(2)).toEqual(['', 'todo', team.member.username, '2026-12-31T00:00:00.000Z', 'todo', '', '']);
  });

  test('semicolons on request; guests read, outsiders get 404, signed out 401', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    await buildUnit(t, team.member, flow, 'A;B');
    const url = `/api/pipelines/${flow.pipeline.id}/export.csv`;
    const semi = await as(t, team.member)('GET', `${url}?delimiter=semicolon`);
    expect(semi.body.split('\r\n')[0]).toBe(
      '\uFEFFid;name;description;Layout: status;Layout: assignees;Layout: due;Animation: status;Animation: assignees;Animation: due',
    );
    expect(semi.body).toContain(';"A;B";');
    expect((await as(t, team.outsider)('GET', url)).statusCode).toBe(404);
    expect((await as(t, null)('GET', url)).statusCode).toBe(401);
    expect((await as(t, team.member)('GET', `${url}?delimiter=tab`)).statusCode).toBe(400);
  });

  test('tasks export takes the filters of GET tasks/', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    const a = await buildUnit(t, team.member, flow, 'A');
    const b = await buildUnit(t, team.member, flow, 'B');
    await setStatus(t, [taskAt(b, flow, 0)], 'in_progress');
    const get = (query: string) => as(t, team.member)('GET', `/api/tasks/export.csv?${query}`);

    const all = records((await get(`pipeline=${flow.pipeline.id}`)).body);
    expect(all[0]).toEqual([
      'id',
      'project',
      'pipeline',
      'unit',
      'stage',
      'status',
      'ready',
      'overdue',
      'due',
      'assignees',
    ]);
    expect(all).toHaveLength(5);
    const listed = await as(t, team.member)('GET', `/api/tasks/?pipeline=${flow.pipeline.id}`);
    expect(all.slice(1).map((r) => Number(r[0]))).toEqual(
      listed.json<{ results: { id: number }[] }>().results.map((r) => r.id),
    );

    const working = records((await get(`pipeline=${flow.pipeline.id}&status=in_progress`)).body);
    expect(working.slice(1).map((r) => [r[3], r[4], r[5]])).toEqual([['B', 'Animation', 'in_progress']]);
    const mine = records((await get('assignee=me')).body);
    expect(
      mine
        .slice(1)
        .map((r) => [r[3], r[4], r[9]])
        .sort(),
    ).toEqual([
      ['A', 'Layout', team.member.username],
      ['B', 'Layout', team.member.username],
    ]);
    expect(a.id).toBeGreaterThan(0);
    expect((await as(t, team.outsider)('GET', `/api/tasks/export.csv?pipeline=${flow.pipeline.id}`)).statusCode).toBe(
      404,
    );
    expect((await as(t, null)('GET', '/api/tasks/export.csv')).statusCode).toBe(401);
  });
  test('no cell starts a formula whichever delimiter a spreadsheet splits the file on; it imports back', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    const units = [
      ['SH998;=1+1;', ''],
      ['SH997,@SUM(A1)', 'first line\n=cmd|calc\r\n- a list\n+ more'],
      ['SH996\t-2', 'tab\t=x'],
      ['"=HYPERLINK(1)"', ";'=already quoted"],
      ["'SH995", 'a; +1'],
    ];
    for (const [name, description] of units) {
      const created = await as(t, team.member)('POST', '/api/units/', {
        project: flow.project.id,
        pipeline: flow.pipeline.id,
        name,
        description,
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    for (const delimiter of ['comma', 'semicolon']) {
      const exported = await as(t, team.member)(
        'GET',
        `/api/pipelines/${flow.pipeline.id}/export.csv?delimiter=${delimiter}`,
      );
      // A spreadsheet in a locale of the other delimiter starts a cell after any separator; one
      // opening a quoted field drops its first quote.
      const cells = exported.body.replace(/^\uFEFF/, '').split(/[,;\t\r\n]/);
      expect(cells.filter((cell) => /^"*[=+\-@]/.test(cell))).toEqual([]);
      expect(exported.body).toContain(delimiter === 'comma' ? `,"SH998;'=1+1;",` : `;"SH998;'=1+1;";`);
      expect(exported.body).toContain(delimiter === 'comma' ? `,"SH996\t'-2",` : `;"SH996\t'-2";`);

      const again = await importAs(team.member, flow, exported.rawPayload, { dryRun: true });
      expect(again.json(), again.body).toEqual({ created: units.length, dry_run: true, errors: [] });
    }
    const imported = await importAs(
      team.member,
      flow,
      (await as(t, team.member)('GET', `/api/pipelines/${flow.pipeline.id}/export.csv`)).rawPayload,
    );
    expect(imported.statusCode, imported.body).toBe(200);
    const rows = await t.database.db
      .select({ name: schema.units.name, description: schema.units.description })
      .from(schema.units)
      .where(eq(schema.units.pipelineId, flow.pipeline.id));
    // The import reads a CRLF inside a quoted field as LF, as every line end.
    const again = units.map(([name, description]) => [name, description!.replace(/\r\n/g, '\n')]);
    expect(rows.map((r) => [r.name, r.description]).sort()).toEqual([...units, ...again].sort());
  });

  test('the formula guard is undone exactly by the import', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(',', ';', '\t', '\r', '\n', "'", '"', '=', '+', '-', '@', 'a', ' ') }),
        (value) => {
          const guarded = guardCell(value);
          expect(unguardCell(guarded)).toBe(value);
          expect(guarded).not.toMatch(/(^|[,;\t\r\n])["]*[=+\-@]/);
        },
      ),
    );
  });
});

describe('CSV import', () => {
  test('creates every unit with its tasks, people by username or e-mail, due dates; Excel-style file', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    await t.database.db.insert(schema.webhooks).values({
      workspaceId: team.workspace.id,
      url: 'http://127.0.0.1:9/hook',
      events: ['unit.created', 'task.created'],
      secret: 'whsec_csv',
      active: true,
    });
    const file =
      '\uFEFFname;description;Animation: assignees;Animation: due;Layout: assignees\r\n' +
      `Шот 010;"Крупный план; ночь";${team.admin.username}, ${team.guest.email.toUpperCase()};31.12.2026;\r\n` +
      `SH020;;;2027-01-15T18:00:00+03:00;${team.owner.username}\r\n` +
      '\r\n' +
      'SH030;"two\r\nlines";;;\r\n';
    const response = await importAs(team.member, flow, file);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ created: 3, dry_run: false, errors: [] });
    expect(await unitNames(flow)).toEqual(['SH020', 'SH030', 'Шот 010']);

    const units = await t.database.db.select().from(schema.units).where(eq(schema.units.pipelineId, flow.pipeline.id));
    const byName = new Map(units.map((u) => [u.name, u]));
    expect(byName.get('Шот 010')!.description).toBe('Крупный план; ночь');
    expect(byName.get('SH030')!.description).toBe('two\nlines');
    const unit = (name: string) => as(t, team.member)('GET', `/api/units/${byName.get(name)!.id}/`);
    const first = (await unit('Шот 010')).json<{
      tasks: { stage: number; assignees: number[]; due_date: string | null }[];
    }>();
    const cell = (u: typeof first, i: number) => u.tasks.find((c) => c.stage === flow.stages[i])!;
    expect(cell(first, 0).assignees.sort()).toEqual([team.admin.id, team.guest.id].sort());
    expect(cell(first, 0).due_date).toBe('2026-12-31T00:00:00.000Z');
    expect(cell(first, 1)).toMatchObject({ assignees: [team.member.id], due_date: '2026-12-31T00:00:00.000Z' });
    const second = (await unit('SH020')).json<typeof first>();
    expect(cell(second, 0)).toMatchObject({ assignees: [], due_date: '2027-01-15T15:00:00.000Z' });
    expect(cell(second, 1)).toMatchObject({ assignees: [team.owner.id], due_date: '2026-12-31T00:00:00.000Z' });

    // As a batch create: one task per stage, and ONE batch webhook for the units and their tasks.
    const tasks = await t.database.db
      .select({ id: schema.tasks.id })
      .from(schema.tasks)
      .where(
        inArray(
          schema.tasks.unitId,
          units.map((u) => u.id),
        ),
      );
    expect(tasks).toHaveLength(6);
    const deliveries = await t.database.db
      .select({ event: schema.webhookDeliveries.event, data: schema.webhookDeliveries.data })
      .from(schema.webhookDeliveries)
      .innerJoin(schema.webhooks, eq(schema.webhooks.id, schema.webhookDeliveries.webhookId))
      .where(eq(schema.webhooks.workspaceId, team.workspace.id));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      event: 'unit.batch_created',
      data: { count: 3, pipeline: flow.pipeline.id },
    });
    expect((deliveries[0]!.data as { units: number[] }).units.sort()).toEqual(units.map((u) => u.id).sort());
  });

  test('a dry run checks everything and writes nothing', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    const response = await importAs(team.member, flow, 'name\nA\nB\n', { dryRun: true });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ created: 2, dry_run: true, errors: [] });
    expect(await unitNames(flow)).toEqual([]);
  });

  test('one bad line rejects the whole file, with line numbers as a spreadsheet shows them', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    const file = [
      'name,description,Layout: due,Animation: assignees',
      'Good,"a description',
      'over two lines",,',
      ',,,',
      `${'x'.repeat(201)},,,`,
      'Late,,soon,',
      'Nobody,,,ghost; ' + team.outsider.username,
      'Extra,,,,',
    ].join('\n');
    const response = await importAs(team.member, flow, file, { language: 'ru' });
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<TUnitImportResult>();
    expect(body.created).toBe(0);
    expect(body.errors.map((e) => [e.line, e.field])).toEqual([
      [4, 'name'],
      [5, 'name'],
      [6, 'Layout: due'],
      [7, 'Animation: assignees'],
      [7, 'Animation: assignees'],
      [8, 'file'],
    ]);
    expect(body.errors[0]!.message).toMatch(/[а-я]/i);
    expect(await unitNames(flow)).toEqual([]);
  });

  test('a file exported from the matrix imports back as new units', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    await buildUnit(t, team.member, flow, 'Шот "1", дубль');
    const exported = await as(t, team.member)(
      'GET',
      `/api/pipelines/${flow.pipeline.id}/export.csv?delimiter=semicolon`,
    );
    const response = await importAs(team.member, flow, exported.rawPayload);
    expect(response.json()).toEqual({ created: 1, dry_run: false, errors: [] });
    expect(await unitNames(flow)).toEqual(['Шот "1", дубль', 'Шот "1", дубль']);
  });

  test.each([
    ['empty', '', 1, 'file'],
    ['only a BOM and blank lines', '\uFEFF\r\n\r\n', 1, 'file'],
    ['binary', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]), 3, 'file'],
    ['a NUL byte', 'name\nA\nB\u0000C\n', 3, 'file'],
    ['UTF-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name\nA\n', 'utf16le')]), 1, 'file'],
    ['Windows-1251', Buffer.concat([Buffer.from('name\nA\n'), Buffer.from([0xd8, 0xee, 0xf2, 0x0a])]), 3, 'file'],
    ['a quote never closed', 'name\n"A\n', 2, 'file'],
    ['a header alone', 'name,description\r\n', 2, 'file'],
    ['a duplicate column', 'name,description,Name\nA,,\n', 1, 'Name'],
    ['no name column', 'description\nA\n', 1, 'name'],
    ['an unknown column', 'name,colour\nA,red\n', 1, 'colour'],
    ['an unknown stage', 'name,Lighting: due\nA,\n', 1, 'Lighting: due'],
    ['an empty column name', 'name,,description\nA,,\n', 1, 'file'],
  ] as const)('refuses %s (400, never 500)', async (_case, file, line, field) => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    const response = await importAs(team.member, flow, typeof file === 'string' ? file : Buffer.from(file));
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<TUnitImportResult>();
    expect(body.created).toBe(0);
    expect(body.errors[0], response.body).toMatchObject({ line, field });
    expect(await unitNames(flow)).toEqual([]);
  });

  test('10,000 units are accepted, 10,001 refused naming the line', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    const lines = (n: number) => `name\n${Array.from({ length: n }, (_, i) => `Shot ${i + 1}`).join('\n')}\n`;
    const tooMany = await importAs(team.member, flow, lines(10_001), { dryRun: true });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<TUnitImportResult>().errors).toEqual([
      { line: 10_002, field: 'file', message: 'A file may hold at most 10000 units: split it.' },
    ]);
    const enough = await importAs(team.member, flow, lines(10_000), { dryRun: true });
    expect(enough.json()).toEqual({ created: 10_000, dry_run: true, errors: [] });
  });

  test('a file of short lines past the row limit is refused at the limit while the server keeps answering', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    // 1.2 MB, 400,000 lines: read whole before the limit was checked, this held the server for seconds.
    const file = `name\n${'ab\n'.repeat(400_000)}`;
    // The longest the event loop went without running a 10 ms timer, and each health check's wait.
    let last = performance.now();
    let stalled = 0;
    const ticker = setInterval(() => {
      stalled = Math.max(stalled, performance.now() - last);
      last = performance.now();
    }, 10);
    let importing = true;
    const answer = importAs(team.member, flow, file, { dryRun: true }).finally(() => (importing = false));
    const health: number[] = [];
    do {
      const asked = performance.now();
      const response = await t.app.inject({ method: 'GET', url: '/api/health/' });
      expect(response.statusCode).toBe(200);
      health.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 10));
    } while (importing);
    const response = await answer;
    clearInterval(ticker);
    expect(response.statusCode).toBe(400);
    expect(response.json<TUnitImportResult>().errors).toEqual([
      { line: 10_002, field: 'file', message: 'A file may hold at most 10000 units: split it.' },
    ]);
    // Generous bounds for a loaded machine: the whole-file parse blocked for several seconds.
    expect(stalled).toBeLessThan(1000);
    expect(Math.max(...health)).toBeLessThan(1000);
  });

  test('the reading stops at the row limit: what follows is never parsed, fields after the file still count', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    const rows = Array.from({ length: 15_000 }, (_, i) => `Shot ${i + 1}`).join('\n');
    // Well past the limit: a quote never closed and a NUL byte, each a refusal of its own when read.
    const file = `name\n${rows}\n"never closed\n\u0000\n`;
    for (const fileFirst of [false, true]) {
      const response = await importAs(team.member, flow, file, { dryRun: true, fileFirst });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<TUnitImportResult>().errors).toEqual([
        { line: 10_002, field: 'file', message: 'A file may hold at most 10000 units: split it.' },
      ]);
    }
    expect(await unitNames(flow)).toEqual([]);
  });

  test('blank lines are skipped up to the row limit, no further', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    const some = await importAs(team.member, flow, `name\nA\n${'\r\n'.repeat(10_000)}B\n`, { dryRun: true });
    expect(some.json()).toEqual({ created: 2, dry_run: true, errors: [] });
    // Line 2 is A, lines 3 to 10,003 blank: the 10,001st of them is refused, B never read.
    const endless = await importAs(team.member, flow, `name\nA\n${'\n'.repeat(1_000_000)}B\n`, { dryRun: true });
    expect(endless.statusCode).toBe(400);
    expect(endless.json<TUnitImportResult>().errors).toEqual([
      { line: 10_003, field: 'file', message: 'The file has more than 10000 blank lines: remove them.' },
    ]);
  });

  test('at most 200 problems are listed; a file over 16 MB is a 413', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    const blanks = `name,description\n${Array.from({ length: 250 }, () => ',x').join('\n')}\n`;
    const many = (await importAs(team.member, flow, blanks)).json<TUnitImportResult>();
    expect(many.errors).toHaveLength(201);
    expect(many.errors[200]).toEqual({ line: 202, field: 'file', message: 'Problems not shown: 50.' });
    const huge = await importAs(team.member, flow, `name\n${'x'.repeat(16 * 1024 * 1024)}\n`, { language: 'ru' });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ detail: 'Файл может быть не больше 16 МБ.', code: 'payload_too_large' });
    // Refused for its rows at once, then read to its end unparsed: over 16 MB, the size is the answer.
    const long = await importAs(team.member, flow, `name\n${'ab\n'.repeat(6_000_000)}`, { dryRun: true });
    expect(long.statusCode).toBe(413);
    expect(long.json()).toEqual({ detail: 'A file can be at most 16 MB.', code: 'payload_too_large' });
    expect(await unitNames(flow)).toEqual([]);
  });

  test('rights: guests 403, outsiders 404, signed out 401, a read-only token 403; form errors are 400 or 415', async () => {
    const team = await buildTeam(t);
    const flow = await reversedFlow(team);
    expect((await importAs(team.guest, flow, 'name\nA\n')).statusCode).toBe(403);
    expect((await importAs(team.outsider, flow, 'name\nA\n')).statusCode).toBe(404);
    expect((await importAs(null, flow, 'name\nA\n')).statusCode).toBe(401);
    const token = await as(t, team.admin)('POST', '/api/users/me/tokens/', { name: 'Sheet', scope: 'read' });
    const read = { headers: { authorization: `Bearer ${token.json<TApiTokenCreated>().token}` } };
    expect((await importAs(read, flow, 'name\nA\n')).statusCode).toBe(403);
    const json = await as(t, team.member)('POST', '/api/units/import/', { project: flow.project.id });
    expect(json.statusCode).toBe(415);
    const noFile = multipart({ project: flow.project.id, pipeline: flow.pipeline.id });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/units/import/',
      payload: noFile.payload,
      headers: { ...team.member.headers, ...noFile.headers },
    });
    expect(missing.statusCode).toBe(400);
    const badField = multipart({ project: 'x', pipeline: flow.pipeline.id }, 'name\nA\n');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/units/import/',
      payload: badField.payload,
      headers: { ...team.member.headers, ...badField.headers },
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(Object.keys(bad.json<object>())).toEqual(['project']);
    const whole = multipart({ project: flow.project.id, pipeline: flow.pipeline.id }, `name\n${'A\n'.repeat(100)}`);
    const cut = await t.app.inject({
      method: 'POST',
      url: '/api/units/import/',
      payload: whole.payload.subarray(0, whole.payload.length - 50), // cut in the file
      headers: { ...team.member.headers, ...whole.headers },
    });
    expect(cut.json()).toEqual({ detail: 'The upload is not a valid multipart form.', code: 'bad_request' });
    expect(await unitNames(flow)).toEqual([]);
  });

  test('the OpenAPI document describes the three calls', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, unknown> }> }>>;
    }>();
    expect(Object.keys(doc.paths['/api/pipelines/{id}/export.csv']!.get!.responses['200']!.content)).toEqual([
      'text/csv',
    ]);
    expect(Object.keys(doc.paths['/api/tasks/export.csv']!.get!.responses['200']!.content)).toEqual(['text/csv']);
    expect(JSON.stringify(doc.paths['/api/units/import/']!.post)).toContain('examples');
  });
});
