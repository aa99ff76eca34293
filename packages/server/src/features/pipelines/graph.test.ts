import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TGraphSave, TGraphSaveResult, TPipeline } from '@stageline/shared';
import { schema } from '../../db';
import { relaxedLimits } from '../../../test/accounts';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildPipeline, buildProject } from '../../../test/pipelines';
import { as, buildTeam, buildUser, type Team } from '../../../test/workspaces';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

type Node = TGraphSave['nodes'][number];
type Edge = TGraphSave['edges'][number];

/** A team with a pipeline (start, end and `stages` unconnected stages), and how to save its graph. */
async function setup(stages = 2) {
  const team = await buildTeam(t);
  const project = await buildProject(t, { workspace: team.workspace });
  const pipeline = await buildPipeline(t, { project, stages });
  const url = `/api/pipelines/${pipeline.id}/graph/`;
  const root: Node = { id: pipeline.root, kind: 'root', name: 'Start', x: 0, y: 0 };
  const end: Node = { id: pipeline.end, kind: 'end', name: 'End', x: 0, y: 500 };
  const stage = (id: number, name = `Stage ${id}`): Node => ({ id, kind: 'stage', name, x: 10, y: 100 });
  const save = (body: { version?: number; nodes: Node[]; edges: Edge[] }, user: Team['member'] = team.member) =>
    as(t, user)('PUT', url, { version: 0, ...body });
  const load = async () => (await as(t, team.member)('GET', `/api/pipelines/${pipeline.id}/`)).json<TPipeline>();
  return { team, project, pipeline, root, end, stage, save, load };
}

async function edgesInDb(pipelineId: number) {
  return t.database.db
    .select({ source: schema.stageEdges.sourceId, target: schema.stageEdges.targetId })
    .from(schema.stageEdges)
    .where(eq(schema.stageEdges.pipelineId, pipelineId));
}

describe('graph save', () => {
  test('new nodes get ids for their tmp_id and the project defaults; the version grows', async () => {
    const s = await setup(1);
    await t.database.db
      .update(schema.projects)
      .set({ reviewMode: 'any', todoEnabled: false })
      .where(eq(schema.projects.id, s.project.id));
    const [first] = s.pipeline.stages;
    const response = await s.save({
      nodes: [
        s.root,
        s.stage(first!, 'Layout'),
        { tmp_id: 'a', kind: 'stage', name: 'Animation', x: 1.5, y: 2.5 },
        { tmp_id: 'b', kind: 'stage', name: 'Lighting', x: 3, y: 4, review_mode: 'each_wait' },
        s.end,
      ],
      edges: [
        { source: s.pipeline.root, target: first! },
        { source: first!, target: 'a' },
        { source: 'a', target: 'b' },
        { source: 'b', target: s.pipeline.end },
      ],
    });
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json<TGraphSaveResult>();
    const a = saved.id_map.a!;
    const b = saved.id_map.b!;
    expect(Object.keys(saved.id_map).sort()).toEqual(['a', 'b']);
    expect(saved.version).toBe(1);
    expect(saved.stages_count).toBe(3);
    expect(saved.nodes.map((n) => n.id)).toEqual([s.pipeline.root, first, a, b, s.pipeline.end]);
    expect(saved.nodes.find((n) => n.id === a)).toMatchObject({
      name: 'Animation',
      x: 1.5,
      y: 2.5,
      review_mode: 'any',
      todo_enabled: false,
    });
    expect(saved.nodes.find((n) => n.id === b)).toMatchObject({ review_mode: 'each_wait', todo_enabled: false });
    expect(saved.nodes.find((n) => n.id === first)!.name).toBe('Layout');
    expect(saved.edges).toEqual(
      [
        { source: s.pipeline.root, target: first },
        { source: first, target: a },
        { source: a, target: b },
        { source: b, target: s.pipeline.end },
      ].sort((x, y) => x.source! - y.source! || x.target! - y.target!),
    );
    expect(Object.keys(saved.stage_counters)).toHaveLength(5);
    const { id_map: _ignored, ...pipeline } = saved;
    expect(await s.load()).toEqual(pipeline);
  });

  test('removed stages are deleted with their edges; start and end keep their names', async () => {
    const s = await setup(3);
    const [x, y, z] = s.pipeline.stages as [number, number, number];
    const chain = (ids: number[]) =>
      [s.pipeline.root, ...ids, s.pipeline.end]
        .slice(1)
        .map((target, i) => ({ source: [s.pipeline.root, ...ids][i]!, target }));
    expect(
      (await s.save({ nodes: [s.root, s.stage(x), s.stage(y), s.stage(z), s.end], edges: chain([x, y, z]) }))
        .statusCode,
    ).toBe(200);
    const response = await s.save({
      version: 1,
      nodes: [{ ...s.root, name: 'Renamed', x: 42 }, s.stage(x), s.stage(z), s.end],
      edges: chain([x, z]),
    });
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json<TGraphSaveResult>();
    expect(saved.nodes.map((n) => n.id)).toEqual([s.pipeline.root, x, z, s.pipeline.end]);
    expect(saved.nodes[0]).toMatchObject({ name: 'Start', x: 42 });
    const inDb = await edgesInDb(s.pipeline.id);
    expect(inDb).toHaveLength(3);
    expect(inDb.some((e) => e.source === y || e.target === y)).toBe(false);
    const stagesLeft = await t.database.db.select().from(schema.stages).where(eq(schema.stages.id, y));
    expect(stagesLeft).toEqual([]);
  });

  describe('every graph rule is refused, and nothing is written', () => {
    const cases: [
      string,
      (s: Awaited<ReturnType<typeof setup>>) => { nodes: Node[]; edges: Edge[] },
      string,
      string,
    ][] = [
      [
        'a cycle',
        (s) => {
          const [x, y] = s.pipeline.stages as [number, number];
          return {
            nodes: [s.root, s.stage(x), s.stage(y), s.end],
            edges: [
              { source: x, target: y },
              { source: y, target: x },
            ],
          };
        },
        'pipeline_cycle',
        'Cycles are not allowed...',
      ],
      [
        'an edge into the start',
        (s) => ({
          nodes: [s.root, s.stage(s.pipeline.stages[0]!), s.end],
          edges: [{ source: s.pipeline.stages[0]!, target: s.pipeline.root }],
        }),
        'bad_request',
        'Nothing can lead into the start stage.',
      ],
      [
        'an edge out of the end',
        (s) => ({
          nodes: [s.root, s.stage(s.pipeline.stages[0]!), s.end],
          edges: [{ source: s.pipeline.end, target: s.pipeline.stages[0]! }],
        }),
        'bad_request',
        'Nothing can lead out of the end stage.',
      ],
      [
        'an edge to a missing node',
        (s) => ({ nodes: [s.root, s.end], edges: [{ source: s.pipeline.root, target: 'ghost' }] }),
        'bad_request',
        'A connection leads to a stage that does not exist.',
      ],
      [
        'a duplicate edge',
        (s) => ({
          nodes: [s.root, s.stage(s.pipeline.stages[0]!), s.end],
          edges: [
            { source: s.pipeline.root, target: s.pipeline.stages[0]! },
            { source: s.pipeline.root, target: s.pipeline.stages[0]! },
          ],
        }),
        'bad_request',
        'These stages are already connected.',
      ],
      [
        'a self-loop',
        (s) => ({
          nodes: [s.root, s.stage(s.pipeline.stages[0]!), s.end],
          edges: [{ source: s.pipeline.stages[0]!, target: s.pipeline.stages[0]! }],
        }),
        'bad_request',
        'A stage cannot be connected to itself.',
      ],
      [
        'the start removed',
        (s) => ({ nodes: [s.stage(s.pipeline.stages[0]!), s.end], edges: [] }),
        'bad_request',
        'A pipeline needs a start stage.',
      ],
      [
        'the end removed',
        (s) => ({ nodes: [s.root, s.stage(s.pipeline.stages[0]!)], edges: [] }),
        'bad_request',
        'A pipeline needs an end stage.',
      ],
      [
        'the start replaced by a new one',
        (s) => ({ nodes: [{ ...s.root, id: undefined, tmp_id: 'r' }, s.end], edges: [] }),
        'bad_request',
        'Start and end stages cannot be deleted.',
      ],
      [
        'a second start',
        (s) => ({ nodes: [s.root, { ...s.root, id: undefined, tmp_id: 'r' }, s.end], edges: [] }),
        'bad_request',
        'A pipeline has exactly one start stage.',
      ],
      [
        'a stage turned into the end',
        (s) => ({
          nodes: [s.root, { ...s.stage(s.pipeline.stages[0]!), kind: 'end' }, { ...s.end, kind: 'stage' }],
          edges: [],
        }),
        'bad_request',
        'A node cannot change its kind.',
      ],
      [
        '501 stages',
        (s) => ({
          nodes: [
            s.root,
            ...Array.from({ length: 501 }, (_, i): Node => ({
              tmp_id: `n${i}`,
              kind: 'stage',
              name: `S${i}`,
              x: 0,
              y: i,
            })),
            s.end,
          ],
          edges: [],
        }),
        'bad_request',
        'A pipeline can have at most 500 stages.',
      ],
    ];

    test.each(cases)('%s', async (_name, graph, code, detail) => {
      const s = await setup(2);
      const before = await s.load();
      const response = await s.save(graph(s));
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ code, detail });
      expect(await s.load()).toEqual(before);
    });

    test('a node of another pipeline', async () => {
      const s = await setup(1);
      const other = await buildPipeline(t, { project: s.project, stages: 1 });
      const response = await s.save({ nodes: [s.root, s.stage(other.stages[0]!), s.end], edges: [] });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: 'bad_request', detail: 'A stage does not belong to this pipeline.' });
      expect((await as(t, s.team.member)('GET', `/api/stages/${other.stages[0]}/`)).json()).toMatchObject({
        pipeline: other.id,
      });
    });

    test('messages follow Accept-Language', async () => {
      const s = await setup(1);
      const [x] = s.pipeline.stages as [number];
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/pipelines/${s.pipeline.id}/graph/`,
        headers: { ...s.team.member.headers, 'accept-language': 'ru' },
        payload: { version: 0, nodes: [s.root, s.stage(x), s.end], edges: [{ source: x, target: x }] },
      });
      expect(response.json()).toMatchObject({ code: 'bad_request', detail: 'Этап нельзя соединить с самим собой.' });
    });
  });

  test('a stale version is refused with 409 and the current version; nothing is written', async () => {
    const s = await setup(1);
    const [x] = s.pipeline.stages as [number];
    expect((await s.save({ nodes: [s.root, s.stage(x), s.end], edges: [] })).statusCode).toBe(200);
    const before = await s.load();
    const stale = await s.save({ version: 0, nodes: [s.root, s.end], edges: [] });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ code: 'conflict', detail: 'The pipeline was changed by someone else', version: 1 });
    expect(await s.load()).toEqual(before);
  });

  test('of two saves from the same version, exactly one wins', async () => {
    const s = await setup(2);
    const [x, y] = s.pipeline.stages as [number, number];
    const responses = await Promise.all([
      s.save({ nodes: [s.root, s.stage(x), s.end], edges: [{ source: s.pipeline.root, target: x }] }),
      s.save({ nodes: [s.root, s.stage(y), s.end], edges: [{ source: y, target: s.pipeline.end }] }, s.team.admin),
    ]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = responses.find((r) => r.statusCode === 200)!.json<TGraphSaveResult>();
    const { id_map: _ignored, ...pipeline } = winner;
    expect(await s.load()).toEqual(pipeline);
    expect(pipeline.version).toBe(1);
  });

  test('guests cannot save; outsiders get 404', async () => {
    const s = await setup(0);
    const body = { nodes: [s.root, s.end], edges: [] };
    expect((await s.save(body, s.team.guest)).statusCode).toBe(403);
    expect((await s.save(body, s.team.outsider)).statusCode).toBe(404);
  });

  test('default people of nodes must be members of the workspace', async () => {
    const s = await setup(1);
    const [x] = s.pipeline.stages as [number];
    const stranger = await buildUser(t);
    const refused = await s.save({
      nodes: [s.root, { ...s.stage(x), default_reviewers: [s.team.guest.id, stranger.id] }, s.end],
      edges: [],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ 'nodes.1.default_reviewers': ['Only members of the workspace can be chosen.'] });
    const saved = await s.save({
      nodes: [
        s.root,
        { ...s.stage(x), default_reviewers: [s.team.guest.id, s.team.owner.id], default_assignees: [s.team.member.id] },
        {
          tmp_id: 'n',
          kind: 'stage',
          name: 'New',
          x: 0,
          y: 0,
          default_assignees: [s.team.admin.id],
          default_due_days: 3,
        },
        s.end,
      ],
      edges: [],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const result = saved.json<TGraphSaveResult>();
    expect(result.nodes.find((n) => n.id === x)).toMatchObject({
      default_reviewers: [s.team.owner.id, s.team.guest.id].sort((a, b) => a - b),
      default_assignees: [s.team.member.id],
    });
    expect(result.nodes.find((n) => n.id === result.id_map.n)).toMatchObject({
      default_assignees: [s.team.admin.id],
      default_due_days: 3,
    });
  });

  test('a 500-stage pipeline saves and loads in a few statements', async () => {
    const s = await setup(0);
    const n = 500;
    const nodes: Node[] = [
      s.root,
      ...Array.from({ length: n }, (_, i): Node => ({
        tmp_id: `s${i}`,
        kind: 'stage',
        name: `Stage ${i}`,
        x: (i % 25) * 200,
        y: Math.floor(i / 25) * 120,
      })),
      s.end,
    ];
    // A layered graph: each stage feeds the next two; the first from the start, the last into the end.
    const edges: Edge[] = [
      { source: s.pipeline.root, target: 's0' },
      { source: `s${n - 1}`, target: s.pipeline.end },
    ];
    for (let i = 0; i < n - 1; i++) {
      edges.push({ source: `s${i}`, target: `s${i + 1}` });
      if (i + 2 < n) edges.push({ source: `s${i}`, target: `s${i + 2}` });
    }
    let started = performance.now();
    const created = await s.save({ nodes, edges });
    const createMs = performance.now() - started;
    expect(created.statusCode, created.body.slice(0, 300)).toBe(200);
    const saved = created.json<TGraphSaveResult>();
    expect(saved.stages_count).toBe(n);
    expect(saved.edges).toHaveLength(edges.length);

    // Move every stage and drop a few: the update path.
    const moved: Node[] = saved.nodes
      .filter((node) => node.kind !== 'stage' || node.id % 50 !== 0)
      .map((node) => ({ id: node.id, kind: node.kind, name: node.name, x: node.x + 7, y: node.y }));
    const kept = new Set(moved.map((node) => node.id));
    started = performance.now();
    const updated = await s.save({
      version: 1,
      nodes: moved,
      edges: saved.edges.filter((e) => kept.has(e.source) && kept.has(e.target)),
    });
    const updateMs = performance.now() - started;
    expect(updated.statusCode, updated.body.slice(0, 300)).toBe(200);

    started = performance.now();
    const loaded = await s.load();
    const loadMs = performance.now() - started;
    expect(loaded.nodes).toHaveLength(moved.length);
    expect(loaded.version).toBe(2);
    // eslint-disable-next-line no-console -- the timings are part of the test's report
    console.info(
      `500-stage pipeline (${t.database.kind}): create ${createMs.toFixed(0)} ms, ` +
        `move all ${updateMs.toFixed(0)} ms, load ${loadMs.toFixed(0)} ms`,
    );
    expect(createMs + updateMs + loadMs).toBeLessThan(5000);
  });
});
