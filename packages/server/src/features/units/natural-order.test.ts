import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TMatrixPage, TProject, TPipelineSummary, TUnitList, TWorkspace } from '@stageline/shared';
import { writeCursor } from '../../http/cursor';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildPipeline, buildProject } from '../../../test/pipelines';
import { buildFlow } from '../../../test/units';
import { addMember, as, buildTeam, buildWorkspace } from '../../../test/workspaces';

/**
 * Names sort naturally in the database (docs/decisions.md, entry 59), so pages agree with the order:
 * on PGlite here, on PostgreSQL with `npm run test:api:pg`.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

/** 1…200 by value, with the case and padding variants ICU's numeric order places among them. */
const expected = [
  ...['Shot 1', 'shot 2', 'Shot 02', 'Shot 2'],
  ...Array.from({ length: 198 }, (_, i) => `Shot ${i + 3}`),
  'Shot 200a',
  'Shot B',
];

describe('natural order of names', () => {
  test('units: the list and the matrix page by number value, both ways', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    const batch = await as(t, team.member)('POST', '/api/units/batch/', {
      project: flow.project.id,
      pipeline: flow.pipeline.id,
      template: 'Shot {count}',
      count: 200,
      start: 1,
      step: 1,
    });
    expect(batch.statusCode, batch.body.slice(0, 300)).toBe(201);
    for (const name of ['Shot B', 'Shot 200a', 'shot 2', 'Shot 02']) {
      const created = await as(t, team.member)('POST', '/api/units/', {
        project: flow.project.id,
        pipeline: flow.pipeline.id,
        name,
      });
      expect(created.statusCode).toBe(201);
    }
    const get = async <T>(url: string) => (await as(t, team.guest)('GET', url)).json<T>();

    const listed: string[] = [];
    for (let offset = 0; offset < expected.length; offset += 50) {
      const page = await get<TUnitList>(`/api/units/?pipeline=${flow.pipeline.id}&limit=50&offset=${offset}`);
      listed.push(...page.results.map((u) => u.name));
    }
    expect(listed).toEqual(expected);

    // Paged by key: the same order, every page says the whole count (stored, not counted), and the
    // last page has no cursor.
    const keyed: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const after: string = cursor === null ? '' : `&after=${cursor}`;
      const page: TUnitList = await get<TUnitList>(`/api/units/?pipeline=${flow.pipeline.id}&limit=30${after}`);
      expect(page.count).toBe(expected.length);
      keyed.push(...page.results.map((u) => u.name));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 20);
    expect(keyed).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 30));
    // A search is counted, and pages by key as well.
    const search = await get<TUnitList>(`/api/units/?pipeline=${flow.pipeline.id}&search=shot 1&limit=5`);
    const matching = expected.filter((name) => name.toLowerCase().includes('shot 1'));
    expect(search.count).toBe(matching.length);
    const second = await get<TUnitList>(
      `/api/units/?pipeline=${flow.pipeline.id}&search=shot 1&limit=5&after=${search.next_cursor}`,
    );
    expect([...search.results, ...second.results].map((u) => u.name)).toEqual(matching.slice(0, 10));
    expect(second.count).toBe(matching.length);

    const matrix = async (sort: string) => {
      const names: string[] = [];
      for (let offset = 0; offset < expected.length; offset += 50) {
        const page = await get<TMatrixPage>(
          `/api/units/matrix/?pipeline=${flow.pipeline.id}&sort=${sort}&limit=50&offset=${offset}`,
        );
        names.push(...page.rows.map((r) => r.unit.name));
      }
      return names;
    };
    expect(await matrix('name')).toEqual(expected);
    expect(await matrix('-name')).toEqual([...expected].reverse());
    // The four units made one by one come last by creation; the batch shares one creation time, so
    // its order there is its ids'.
    expect((await matrix('created')).slice(-4)).toEqual(['Shot B', 'Shot 200a', 'shot 2', 'Shot 02']);

    // The matrix paged by key (decision 125), in each sort: the same order as by offset, the stored
    // count on every page, and no cursor on the last page; a search counts its matches on every page.
    const keyedMatrix = async (sort: string, filter = '') => {
      const names: string[] = [];
      const counts = new Set<number>();
      let cursor: string | null = null;
      let pages = 0;
      do {
        const after: string = cursor === null ? '' : `&after=${cursor}`;
        const page: TMatrixPage = await get<TMatrixPage>(
          `/api/units/matrix/?pipeline=${flow.pipeline.id}&sort=${sort}&limit=40${filter}${after}`,
        );
        names.push(...page.rows.map((r) => r.unit.name));
        counts.add(page.count);
        cursor = page.next_cursor;
        pages += 1;
      } while (cursor !== null && pages < 20);
      return { names, counts: [...counts], pages };
    };
    for (const sort of ['name', '-name', 'created', '-created']) {
      const keyed = await keyedMatrix(sort);
      expect(keyed.names, sort).toEqual(await matrix(sort));
      expect(keyed.counts, sort).toEqual([expected.length]);
      expect(keyed.pages, sort).toBe(Math.ceil(expected.length / 40));
    }
    const searched = await keyedMatrix('created', '&search=shot 1');
    expect(searched.names.toSorted()).toEqual(matching.toSorted());
    expect(searched.counts).toEqual([matching.length]);
  });

  test('a cursor that is not one, or a cursor with an offset, is a translated 400', async () => {
    const team = await buildTeam(t);
    const flow = await buildFlow(t, { workspace: team.workspace, stages: [{}] });
    const list = (query: string, language = 'en') =>
      t.app.inject({
        method: 'GET',
        url: `/api/units/?pipeline=${flow.pipeline.id}&${query}`,
        headers: { ...team.member.headers, 'accept-language': language },
      });
    for (const bad of ['after=%%%', 'after=bm90IGpzb24', `after=${Buffer.from('["a",-1]').toString('base64url')}`]) {
      const response = await list(bad);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json<Record<string, string[]>>().after).toEqual([
        'This page link is not valid: start again from the first page.',
      ]);
    }
    const both = await list(`after=${Buffer.from('["a",1]').toString('base64url')}&offset=5`, 'ru');
    expect(both.statusCode).toBe(400);
    expect(both.json<Record<string, string[]>>().after).toEqual(['Укажите либо after, либо offset, но не оба.']);

    // The matrix's cursors: a name where a creation time belongs, or a date that is not one, is the
    // same 400, not the database's error.
    for (const [sort, key] of [
      ['created', ['Shot 1', 1]],
      ['-created', ['2026-02-30T10:00:00.000000Z', 1]],
      ['created', ['2026-11-25T10:00:00Z', 1]],
      ['name', [7, 1]],
    ] as const) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/units/matrix/?pipeline=${flow.pipeline.id}&sort=${sort}&after=${writeCursor([...key])}`,
        headers: team.member.headers,
      });
      expect(response.statusCode, `${sort} ${JSON.stringify(key)}`).toBe(400);
      expect(response.json<Record<string, string[]>>().after).toEqual([
        'This page link is not valid: start again from the first page.',
      ]);
    }
    const good = await t.app.inject({
      method: 'GET',
      url: `/api/units/matrix/?pipeline=${flow.pipeline.id}&sort=-created&after=${writeCursor(['2026-11-25T10:00:00.000000Z', 1])}`,
      headers: team.member.headers,
    });
    expect(good.statusCode).toBe(200);
  });

  test('workspaces, projects and pipelines list by number value too', async () => {
    const team = await buildTeam(t);
    for (const name of ['Season 10', 'Season 9']) {
      const workspace = await buildWorkspace(t, { owner: team.owner, name });
      await addMember(t, { workspace, user: team.guest, role: 'guest' });
      const project = await buildProject(t, { workspace: team.workspace, name });
      for (const pipeline of ['Cut 10', 'Cut 9']) await buildPipeline(t, { project, name: pipeline });
    }
    const get = async <T>(url: string) => (await as(t, team.guest)('GET', url)).json<T>();
    const workspaces = await get<TWorkspace[]>('/api/workspaces/');
    expect(workspaces.map((w) => w.name).filter((n) => n.startsWith('Season'))).toEqual(['Season 9', 'Season 10']);
    const projects = await get<TProject[]>(`/api/projects/?workspace=${team.workspace.id}`);
    expect(projects.map((p) => p.name)).toEqual(['Season 9', 'Season 10']);
    const pipelines = await get<TPipelineSummary[]>(`/api/pipelines/?project=${projects[0]!.id}`);
    expect(pipelines.map((p) => p.name)).toEqual(['Cut 9', 'Cut 10']);
  });
});
