import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { wholeMatrixRows, ZMatrixPage, ZWholeMatrix, type TTaskCell, type TWholeMatrix } from '@stageline/shared';
import { eq } from 'drizzle-orm';
import { countStatements, schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { attach } from '../../../test/files';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { act, buildFlow, buildUnit, ok, taskAt } from '../../../test/units';
import { as, buildTeam, buildUser } from '../../../test/workspaces';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

/** An answer checked against `ZWholeMatrix`, as the rows the screen draws. */
const rows = (body: unknown) => wholeMatrixRows(ZWholeMatrix.parse(body));

/** A whole-matrix cell with its field names back, as the paged matrix sends it. */
function named(matrix: TWholeMatrix, cells: TWholeMatrix['units'][number][2]): TTaskCell[] {
  return cells.flatMap((cell, i) => {
    if (!cell) return [];
    // Fields at their defaults are left off the end; `teams` is not in the paged cell.
    const [id, status, ready = false, overdue = false, due = null, assignees = [], files = 0] = cell;
    const due_date = due === null ? null : new Date(due).toISOString();
    return [{ id, stage: matrix.stages[i]!.id, status, ready, overdue, due_date, assignees, files }];
  });
}

describe('GET units/matrix/whole/', () => {
  test('every unit with every cell, the same cells as the paged matrix, units in natural order', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{ assignees: [team.member], dueDays: 2 }, { dueDate: '2020-01-01' }, {}],
      edges: [
        ['root', 0],
        [0, 1],
        [1, 2],
        [2, 'end'],
      ],
    });
    const names = ['Shot 10', 'Shot 2', 'Shot 1'];
    const units = [];
    for (const name of names) units.push(await buildUnit(t, team.member, flow, name));
    const member = as(t, team.member);
    // A started task, one with its own assignee, and one done (its successor becomes ready and overdue).
    ok(await act(t, team.member, taskAt(units[0]!, flow, 0), 'start'));
    ok(await member('PATCH', `/api/tasks/${taskAt(units[1]!, flow, 2)}/`, { assignees: [team.admin.id] }));
    ok(await member('PATCH', `/api/tasks/${taskAt(units[2]!, flow, 0)}/`, { status: 'done' }));
    // Two files on a task, one of them on its comment: the paperclip counts both.
    const filed = taskAt(units[1]!, flow, 0);
    await attach(t, team.member, { task: filed }, { name: 'notes.txt', data: Buffer.from('one') });
    const comment = await member('POST', '/api/comments/', { task: filed, text: 'See the file' });
    expect(comment.statusCode, comment.body).toBe(201);
    await attach(
      t,
      team.member,
      { comment: comment.json<{ id: number }>().id },
      { name: 'more.txt', data: Buffer.from('two') },
    );

    const response = await member('GET', `/api/units/matrix/whole/?pipeline=${flow.pipeline.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = ZWholeMatrix.parse(response.json());
    expect(answer.cell).toEqual(['unit', 'stage', 'id', 'status', 'ready', 'overdue', 'due', 'own']);
    // The own assignee and the files travel by task id; most cells are four numbers.
    expect(Object.keys(answer.assignees)).toEqual([String(taskAt(units[1]!, flow, 2))]);
    expect(answer.files).toEqual({ [filed]: 2 });
    expect(answer.cells.filter((cell) => cell.length === 4).length).toBeGreaterThan(0);
    const matrix = wholeMatrixRows(answer);
    expect(matrix.count).toBe(3);
    expect(matrix.stages.map((s) => s.id)).toEqual(flow.stages);
    expect(matrix.units.map(([, name]) => name)).toEqual(['Shot 1', 'Shot 2', 'Shot 10']);
    expect(matrix.people.map(([id]) => id)).toEqual(
      [team.owner.id, team.admin.id, team.member.id, team.guest.id].sort((a, b) => a - b),
    );

    const page = ZMatrixPage.parse(
      (await member('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}&limit=100`)).json(),
    );
    expect(page.rows.map((r) => r.unit.name)).toEqual(['Shot 1', 'Shot 2', 'Shot 10']);
    for (const [i, [id, name, cells]] of matrix.units.entries()) {
      const fields = answer.fields?.[String(id)] ?? {};
      expect({ id, name, fields, tasks: named(matrix, cells) }).toEqual({
        ...page.rows[i]!.unit,
        tasks: page.rows[i]!.tasks,
      });
    }
    // The scene is what the comparison covers: defaults, an own assignee, a done task, an overdue one.
    const all = page.rows.flatMap((r) => r.tasks);
    expect(all.some((c) => c.assignees.includes(team.member.id))).toBe(true);
    expect(all.some((c) => c.assignees.includes(team.admin.id))).toBe(true);
    expect(all.some((c) => c.status === 'done')).toBe(true);
    expect(all.some((c) => c.overdue)).toBe(true);
    expect(all.find((c) => c.id === filed)?.files).toBe(2);
  });

  test('an unchanged matrix is a 304; a change gives a new ETag; gzip when asked; one statement for the matrix', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{}],
      edges: [
        ['root', 0],
        [0, 'end'],
      ],
    });
    const unit = await buildUnit(t, team.member, flow, 'Shot 1');
    // Enough units for the answer to pass the compression threshold (1 KB).
    const batch = {
      project: flow.project.id,
      pipeline: flow.pipeline.id,
      template: 'Shot {count}',
      count: 30,
      start: 2,
      step: 1,
    };
    expect((await as(t, team.member)('POST', '/api/units/batch/', batch)).statusCode).toBe(201);
    const url = `/api/units/matrix/whole/?pipeline=${flow.pipeline.id}`;
    const first = await as(t, team.member)('GET', url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...team.member.headers, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    ok(await act(t, team.member, taskAt(unit, flow, 0), 'start'));
    const changed = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...team.member.headers, 'if-none-match': etag, 'accept-encoding': 'gzip' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.headers['content-encoding']).toBe('gzip');
    const body = rows(JSON.parse(gunzipSync(changed.rawPayload).toString('utf8')));
    expect(body.units[0]![2][0]![1]).toBe('in_progress');

    // The pipeline with the caller's role and its graph (decision 121), and the matrix with its people
    // (the session is known from the calls above: decision 99's cache).
    const { statements } = await countStatements(() => as(t, team.member)('GET', url));
    expect(statements).toBe(2);
  });

  test('a large matrix goes out in brotli compressed in one call, its length known (decision 124)', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    // Past the streamed path's threshold on any machine (@fastify/compress: at most 64 KB).
    const batch = {
      project: flow.project.id,
      pipeline: flow.pipeline.id,
      template: 'Shot {count}',
      count: 2000,
      start: 1,
      step: 1,
    };
    expect((await as(t, team.member)('POST', '/api/units/batch/', batch)).statusCode).toBe(201);
    const url = `/api/units/matrix/whole/?pipeline=${flow.pipeline.id}`;
    const plain = await t.app.inject({ method: 'GET', url, headers: team.member.headers });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(64 * 1024);
    const br = await t.app.inject({
      method: 'GET',
      url,
      headers: { ...team.member.headers, 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expect(rows(JSON.parse(plain.body)).units).toHaveLength(2000);
  });

  test('assignee teams follow only where there are some; ?units= answers just those units', async () => {
    const team = await buildTeam(t);
    const owner = as(t, team.owner);
    const lighting = await owner('POST', `/api/workspaces/${team.workspace.id}/teams/`, {
      name: 'Lighting',
      color: '#12ab34',
    });
    expect(lighting.statusCode, lighting.body).toBe(201);
    const lightingId = lighting.json<{ id: number }>().id;
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{}, {}],
      edges: [
        ['root', 0],
        [0, 1],
        [1, 'end'],
      ],
    });
    const units = [];
    for (const name of ['Shot 1', 'Shot 2', 'Shot 3']) units.push(await buildUnit(t, team.member, flow, name));
    const teamed = taskAt(units[1]!, flow, 1);
    ok(await as(t, team.member)('PATCH', `/api/tasks/${teamed}/`, { assignee_teams: [lightingId] }));

    const whole = rows(
      (await as(t, team.member)('GET', `/api/units/matrix/whole/?pipeline=${flow.pipeline.id}`)).json(),
    );
    const cells = whole.units.flatMap(([, , row]) => row).filter((c) => c !== null);
    expect(cells.filter((c) => c.length === 8)).toEqual([expect.arrayContaining([teamed])]);
    expect(cells.find((c) => c[0] === teamed)![7]).toEqual([lightingId]);

    const url = `/api/units/matrix/whole/?pipeline=${flow.pipeline.id}&units=${units[2]!.id},${units[1]!.id},999999`;
    const some = await as(t, team.member)('GET', url);
    expect(some.statusCode, some.body).toBe(200);
    const part = rows(some.json());
    expect(part.count).toBe(2);
    expect(part.units).toEqual(whole.units.slice(1));

    const bad = await as(t, team.member)('GET', `/api/units/matrix/whole/?pipeline=${flow.pipeline.id}&units=1,x`);
    expect(bad.statusCode).toBe(400);
  });

  test('a unit without a task at a stage has a null in that place, the other cells in theirs', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{}, {}, {}],
      edges: [
        ['root', 0],
        [0, 1],
        [1, 2],
        [2, 'end'],
      ],
    });
    const whole = await buildUnit(t, team.member, flow, 'Shot 1');
    const gap = await buildUnit(t, team.member, flow, 'Shot 2');
    // As while a graph save is under way: the middle stage's task is not there (yet, or any more).
    await t.database.db.delete(schema.tasks).where(eq(schema.tasks.id, taskAt(gap, flow, 1)));
    const matrix = rows(
      (await as(t, team.member)('GET', `/api/units/matrix/whole/?pipeline=${flow.pipeline.id}`)).json(),
    );
    const ids = matrix.units.map(([id, , cells]) => [id, cells.map((cell) => cell?.[0] ?? null)]);
    expect(ids).toEqual([
      [whole.id, [0, 1, 2].map((i) => taskAt(whole, flow, i))],
      [gap.id, [taskAt(gap, flow, 0), null, taskAt(gap, flow, 2)]],
    ]);
  });

  test('a pipeline without stages lists its units with no cells', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [], edges: [['root', 'end']] });
    const unit = await buildUnit(t, team.member, flow, 'Lonely');
    const matrix = rows(
      (await as(t, team.member)('GET', `/api/units/matrix/whole/?pipeline=${flow.pipeline.id}`)).json(),
    );
    expect(matrix).toMatchObject({ count: 1, stages: [], units: [[unit.id, 'Lonely', []]] });
  });

  test('someone outside the workspace gets 404, and so does a pipeline that does not exist', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, {
      workspace: team.workspace,
      stages: [{}],
      edges: [
        ['root', 0],
        [0, 'end'],
      ],
    });
    const stranger = await buildUser(t);
    expect((await as(t, stranger)('GET', `/api/units/matrix/whole/?pipeline=${flow.pipeline.id}`)).statusCode).toBe(
      404,
    );
    expect((await as(t, team.member)('GET', '/api/units/matrix/whole/?pipeline=999999')).statusCode).toBe(404);
    expect((await as(t, team.member)('GET', '/api/units/matrix/whole/?pipeline=abc')).statusCode).toBe(400);
  });
});
