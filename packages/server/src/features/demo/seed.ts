import { randomBytes } from 'node:crypto';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { schema, type Db } from '../../db';
import { hashPassword } from '../auth';
import { createPipeline, saveGraph } from '../pipelines';
import { createProject } from '../projects';
import { actOnTask, patchTask } from '../tasks';
import { createUnitsBatch } from '../units';
import { createWorkspace } from '../workspaces';

/**
 * `npm run seed:demo` (issue 8): a workspace with a realistic project for trying the product and for
 * screenshots. Everything but the people goes through the same services as the API, so every task
 * state is one the engine reached by its own transitions.
 */

/** The demo pipeline: an animation short, with a branch (Modeling | Rigging) that merges again. */
export const DemoStages = [
  'Script',
  'Storyboard',
  'Animatic',
  'Modeling',
  'Rigging',
  'Animation',
  'Lighting',
  'Compositing',
] as const;
const edges: [string, string][] = [
  ['start', 'Script'],
  ['Script', 'Storyboard'],
  ['Storyboard', 'Animatic'],
  ['Animatic', 'Modeling'],
  ['Animatic', 'Rigging'],
  ['Modeling', 'Animation'],
  ['Rigging', 'Animation'],
  ['Animation', 'Lighting'],
  ['Lighting', 'Compositing'],
  ['Compositing', 'end'],
];
/**
 * Where Organize puts each node (the web's elk layout, horizontal: docs/decisions.md, entry 135), so
 * the demo opens laid out as the editor would lay it out, links routed between the stages' columns.
 */
const positions: Record<string, [number, number]> = {
  start: [12, 84],
  Script: [204, 68],
  Storyboard: [484, 68],
  Animatic: [764, 68],
  Modeling: [1044, 124],
  Rigging: [1044, 12],
  Animation: [1324, 68],
  Lighting: [1604, 68],
  Compositing: [1884, 68],
  end: [2164, 84],
};
const team = [
  { key: 'anna', firstName: 'Anna', lastName: 'Petrova' },
  { key: 'ben', firstName: 'Ben', lastName: 'Carter' },
  { key: 'chen', firstName: 'Chen', lastName: 'Li' },
] as const;
const remarks = [
  'Looks great, the timing in the second half is much better.',
  'Can we push the camera a little closer here?',
  'Updated the file, please take another look.',
  'The lighting does not match the previous shot yet.',
  'Approved from my side.',
  'Waiting for the final audio before I lock this.',
];

export type DemoSeedOptions = {
  /** An existing account to own the workspace; unset, the `demo` account (created or reset). */
  username?: string;
  /** How many units (shots); 48 by default. */
  units?: number;
  /** Seeds the pseudo-random choice of states, so two runs look alike. */
  seed?: number;
};

export type DemoSeedResult = {
  username: string;
  /** The new password of the `demo` account; null when an existing account was named. */
  password: string | null;
  workspaceId: number;
  projectId: number;
  pipelineId: number;
  units: number;
  tasks: number;
  comments: number;
};

/** mulberry32: small, seedable and good enough for picking demo states. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function upsertPerson(
  db: Db,
  person: { username: string; email: string; firstName: string; lastName: string; passwordHash: string | null },
): Promise<number> {
  const [existing] = await db
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(sql`lower(${schema.users.username}) = lower(${person.username})`);
  if (existing) {
    if (person.passwordHash) {
      await db
        .update(schema.users)
        .set({ passwordHash: person.passwordHash, updatedAt: new Date() })
        .where(eq(schema.users.id, existing.id));
    }
    return existing.id;
  }
  const [row] = await db
    .insert(schema.users)
    .values({ ...person, emailVerified: true, onboarding: 'done' })
    .returning({ id: schema.users.id });
  return row!.id;
}

/**
 * Creates a fresh demo workspace on every run (named with the date, so runs never collide), owned by
 * the demo account, with three teammates, a project, an 8-stage pipeline, `units` shots whose tasks
 * are moved through start, submit, accept and reject, and a few comments.
 */
export async function seedDemo(db: Db, options: DemoSeedOptions = {}): Promise<DemoSeedResult> {
  const next = random(options.seed ?? 8);
  let ownerId: number;
  let username: string;
  let password: string | null = null;
  if (options.username) {
    const [row] = await db
      .select({ id: schema.users.id, username: schema.users.username })
      .from(schema.users)
      .where(sql`lower(${schema.users.username}) = lower(${options.username})`);
    if (!row) throw new Error(`No user named ${options.username}.`);
    ownerId = row.id;
    username = row.username;
  } else {
    password = randomBytes(9).toString('base64url');
    username = 'demo';
    ownerId = await upsertPerson(db, {
      username,
      email: 'demo@stageline.example',
      firstName: 'Dana',
      lastName: 'Demo',
      passwordHash: await hashPassword(password),
    });
  }
  const people = [] as number[];
  for (const person of team) {
    people.push(
      await upsertPerson(db, {
        username: `demo-${person.key}`,
        email: `demo-${person.key}@stageline.example`,
        firstName: person.firstName,
        lastName: person.lastName,
        passwordHash: null,
      }),
    );
  }

  // The owner reviews every stage, so the work goes to the others: nobody reviews their own task
  // (docs/review-rules.md), also when the demo is seeded for one of the team (`--user demo-anna`).
  const workers = people.filter((userId) => userId !== ownerId);

  const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const workspace = await createWorkspace(db, {
    userId: ownerId,
    input: { name: `Demo studio ${stamp}`, description: 'Sample data from npm run seed:demo.' },
  });
  await db
    .insert(schema.memberships)
    .values(
      people
        .filter((userId) => userId !== ownerId)
        .map((userId) => ({ workspaceId: workspace.id, userId, role: 'member' as const, invitedBy: 'link' })),
    );
  await db.update(schema.users).set({ recentWorkspaceId: workspace.id }).where(eq(schema.users.id, ownerId));

  const project = await createProject(db, {
    userId: ownerId,
    input: {
      workspace: workspace.id,
      name: 'Little Lighthouse',
      description: 'A four-minute animated short: every shot goes from script to compositing.',
    },
  });
  const pipeline = await createPipeline(db, {
    userId: ownerId,
    input: { project: project.id, name: 'Shot production', layout: 'horizontal' },
  });
  const root = pipeline.nodes.find((node) => node.kind === 'root')!;
  const end = pipeline.nodes.find((node) => node.kind === 'end')!;
  const ref = (name: string) => (name === 'start' ? root.id : name === 'end' ? end.id : name);
  const saved = await saveGraph(db, {
    userId: ownerId,
    pipelineId: pipeline.id,
    input: {
      version: pipeline.version,
      layout: 'horizontal',
      nodes: [
        { id: root.id, kind: 'root', name: root.name, x: positions.start![0], y: positions.start![1] },
        ...DemoStages.map((name, i) => ({
          tmp_id: name,
          kind: 'stage' as const,
          name,
          x: positions[name]![0],
          y: positions[name]![1],
          default_assignees: [workers[i % workers.length]!],
          default_reviewers: [ownerId],
          ...(name === 'Animation' ? { review_mode: 'each_wait' as const, default_due_days: 5 } : {}),
        })),
        { id: end.id, kind: 'end', name: end.name, x: positions.end![0], y: positions.end![1] },
      ],
      edges: edges.map(([source, target]) => ({ source: ref(source), target: ref(target) })),
    },
  });
  const stageIds = DemoStages.map((name) => saved.id_map[name]!);

  const count = options.units ?? 48;
  const created = await createUnitsBatch(db, {
    userId: ownerId,
    input: { project: project.id, pipeline: pipeline.id, template: 'Shot {count}', count, start: 10, step: 10 },
  });
  const unitIds = created.units.map((unit) => unit.id);
  const taskRows = await db
    .select({ id: schema.tasks.id, unitId: schema.tasks.unitId, stageId: schema.tasks.stageId })
    .from(schema.tasks)
    .where(inArray(schema.tasks.unitId, unitIds))
    .orderBy(asc(schema.tasks.id));
  const taskOf = (unitId: number, stage: number) =>
    taskRows.find((row) => row.unitId === unitId && row.stageId === stageIds[stage])!.id;

  const assigneeOf = (stage: number) => workers[stage % workers.length]!;
  const act = (taskId: number, userId: number, type: 'start' | 'submit' | 'accept' | 'reject', comment?: string) =>
    actOnTask(db, {
      userId,
      taskId,
      command: type === 'reject' ? { type, returnTo: [], ...(comment ? { comment } : {}) } : { type },
    });
  /** Moves one task (ready) to the state named, through the engine's own transitions. */
  const moveTo = async (taskId: number, stage: number, state: 'todo' | 'in_progress' | 'review' | 'edit' | 'done') => {
    if (state === 'todo') return;
    await act(taskId, assigneeOf(stage), 'start');
    if (state === 'in_progress') return;
    await act(taskId, assigneeOf(stage), 'submit');
    if (state === 'review') return;
    if (state === 'edit') {
      await act(taskId, ownerId, 'reject', remarks[Math.floor(next() * 4)]);
      return;
    }
    await act(taskId, ownerId, 'accept');
  };

  // Earlier shots are further along: a stage count done in topological order, then one open stage.
  const open = ['todo', 'in_progress', 'review', 'edit'] as const;
  const overdue: number[] = [];
  for (const [index, unitId] of unitIds.entries()) {
    const progress = Math.max(0, Math.min(DemoStages.length, Math.round((1 - index / count) * 9 - next() * 3)));
    for (let stage = 0; stage < progress; stage++) await moveTo(taskOf(unitId, stage), stage, 'done');
    if (progress >= DemoStages.length) continue;
    const state = open[Math.floor(next() * open.length)]!;
    await moveTo(taskOf(unitId, progress), progress, state);
    // The branch: Rigging may run beside Modeling.
    if (progress === 3) await moveTo(taskOf(unitId, 4), 4, open[Math.floor(next() * open.length)]!);
    if (state === 'in_progress' && next() < 0.4) overdue.push(taskOf(unitId, progress));
  }
  // A few late tasks, so the overdue flag shows up.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  for (const taskId of overdue) {
    await patchTask(db, { userId: ownerId, taskId, patch: { due_date: yesterday } });
  }

  // Comments on units and on tasks, from the whole team.
  const authors = [ownerId, ...people];
  const commentRows = unitIds.slice(0, 12).flatMap((unitId, i) => [
    {
      workspaceId: workspace.id,
      unitId,
      authorId: authors[i % authors.length]!,
      text: remarks[i % remarks.length]!,
    },
    {
      workspaceId: workspace.id,
      taskId: taskOf(unitId, 0),
      authorId: authors[(i + 1) % authors.length]!,
      text: remarks[(i + 2) % remarks.length]!,
    },
  ]);
  await db.insert(schema.comments).values(commentRows);

  const [tasks] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(schema.tasks)
    .where(inArray(schema.tasks.unitId, unitIds));
  return {
    username,
    password,
    workspaceId: workspace.id,
    projectId: project.id,
    pipelineId: pipeline.id,
    units: unitIds.length,
    tasks: tasks?.n ?? 0,
    comments: commentRows.length,
  };
}
