import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { signInAs, type TestUser } from './accounts';

/** One API call as `user` (setting up data where the UI is not the subject); throws on a non-2xx answer. */
export async function call<T>(
  request: APIRequestContext,
  user: TestUser,
  method: string,
  path: string,
  data?: unknown,
): Promise<T> {
  const response = await request.fetch(`/api/${path}`, {
    method,
    data,
    headers: { Authorization: `Bearer ${user.access}` },
  });
  if (!response.ok()) throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A page of its own browser context, signed in as `user` with `workspaceId` as the current workspace. */
export async function openAs(
  browser: Browser,
  baseURL: string | undefined,
  user: TestUser,
  workspaceId: number,
): Promise<Page> {
  const page = await (await browser.newContext({ baseURL })).newPage();
  await signInAs(page, user);
  await page.evaluate((id) => localStorage.setItem('current_workspace', String(id)), workspaceId);
  return page;
}

/** A workspace where `lead` is the owner and every one of `others` joined as a member through a link. */
export async function teamWorkspace(
  request: APIRequestContext,
  lead: TestUser,
  others: TestUser[],
  name: string,
): Promise<{ workspace: number; project: number }> {
  const workspace = await call<{ id: number }>(request, lead, 'POST', 'workspaces/', { name });
  const link = await call<{ token: string }>(request, lead, 'POST', `workspaces/${workspace.id}/link/`, {
    role: 'member',
  });
  for (const user of others) await call(request, user, 'POST', `invites/${link.token}/accept/`);
  const project = await call<{ id: number }>(request, lead, 'POST', 'projects/', {
    workspace: workspace.id,
    name: 'Ep1',
  });
  return { workspace: workspace.id, project: project.id };
}

/**
 * A pipeline of one stage between start and end, with its settings (`review_mode`, `default_reviewers`,
 * `default_assignees`…), and `units` units: answers the pipeline and stage ids and each unit's task there.
 */
export async function oneStagePipeline(
  request: APIRequestContext,
  lead: TestUser,
  project: number,
  stage: Record<string, unknown>,
  units: string[],
): Promise<{ pipeline: number; stage: number; tasks: number[] }> {
  const pipeline = await call<{ id: number; version: number; nodes: { id: number; kind: string; name: string }[] }>(
    request,
    lead,
    'POST',
    'pipelines/',
    { project, name: 'Shots' },
  );
  const root = pipeline.nodes.find((n) => n.kind === 'root')!;
  const end = pipeline.nodes.find((n) => n.kind === 'end')!;
  const saved = await call<{ id_map: Record<string, number> }>(
    request,
    lead,
    'PUT',
    `pipelines/${pipeline.id}/graph/`,
    {
      version: pipeline.version,
      nodes: [
        { id: root.id, kind: 'root', name: root.name, x: 0, y: 0 },
        { tmp_id: 'stage', kind: 'stage', name: 'Layout', x: 200, y: 0, ...stage },
        { id: end.id, kind: 'end', name: end.name, x: 400, y: 0 },
      ],
      edges: [
        { source: root.id, target: 'stage' },
        { source: 'stage', target: end.id },
      ],
    },
  );
  const stageId = saved.id_map.stage!;
  const tasks: number[] = [];
  for (const name of units) {
    const unit = await call<{ tasks: { id: number; stage: number }[] }>(request, lead, 'POST', 'units/', {
      project,
      pipeline: pipeline.id,
      name,
    });
    tasks.push(unit.tasks.find((t) => t.stage === stageId)!.id);
  }
  return { pipeline: pipeline.id, stage: stageId, tasks };
}

/**
 * A pipeline whose Animation stage has two inputs, Model and Rig (Start → Model, Rig → Animation →
 * End), every stage with the settings of `stage` (its reviewers, review mode…): answers the
 * pipeline's id and the three stages' ids.
 */
export async function twoInputsPipeline(
  request: APIRequestContext,
  lead: TestUser,
  project: number,
  stage: Record<string, unknown>,
): Promise<{ pipeline: number; stages: { model: number; rig: number; anim: number } }> {
  const pipeline = await call<{ id: number; version: number; nodes: { id: number; kind: string; name: string }[] }>(
    request,
    lead,
    'POST',
    'pipelines/',
    { project, name: 'Shots' },
  );
  const root = pipeline.nodes.find((n) => n.kind === 'root')!;
  const end = pipeline.nodes.find((n) => n.kind === 'end')!;
  const node = (tmp_id: string, name: string, x: number) => ({ tmp_id, kind: 'stage', name, x, y: 0, ...stage });
  const saved = await call<{ id_map: Record<string, number> }>(
    request,
    lead,
    'PUT',
    `pipelines/${pipeline.id}/graph/`,
    {
      version: pipeline.version,
      nodes: [
        { id: root.id, kind: 'root', name: root.name, x: 0, y: 0 },
        node('model', 'Model', 200),
        node('rig', 'Rig', 200),
        node('anim', 'Animation', 400),
        { id: end.id, kind: 'end', name: end.name, x: 600, y: 0 },
      ],
      edges: [
        { source: root.id, target: 'model' },
        { source: root.id, target: 'rig' },
        { source: 'model', target: 'anim' },
        { source: 'rig', target: 'anim' },
        { source: 'anim', target: end.id },
      ],
    },
  );
  return { pipeline: pipeline.id, stages: saved.id_map as { model: number; rig: number; anim: number } };
}
