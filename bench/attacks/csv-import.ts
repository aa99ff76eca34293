/**
 * Issue 31, item 1: one CSV import held the whole server. A Member (any user, in a workspace of
 * their own) posts a file of short lines just under the 16 MB limit to `units/import/` with
 * `dry_run=true`: far past the 10,000-unit limit, so the import must refuse it at that limit (400)
 * without parsing the rest, while the server keeps answering (docs/security.md, "CSV files").
 *
 * `ctx` is a running server and a signed-in user's `Authorization` value; the workspace, project
 * and pipeline are made through the API. Resolves once the import is answered, with a line for the
 * report. The caller samples `/api/health/` and the server's memory meanwhile.
 */

type Context = { base: string; authorization: string };

/** Just under `Limits.csvImport.maxBytes` (16 MiB), so that the rows, not the bytes, are refused. */
const fileBytes = 16 * 1024 * 1024 - 64 * 1024;

async function create(ctx: Context, path: string, body: object): Promise<{ id: number }> {
  const response = await fetch(`${ctx.base}${path}`, {
    method: 'POST',
    headers: { authorization: ctx.authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: number };
}

export default async function attack(ctx: Context): Promise<string> {
  const workspace = await create(ctx, '/api/workspaces/', { name: 'CSV import attack' });
  const project = await create(ctx, '/api/projects/', { workspace: workspace.id, name: 'Film' });
  const pipeline = await create(ctx, '/api/pipelines/', { project: project.id, name: 'Shots' });

  const header = 'name\n';
  const line = 'SH0010\n';
  const file = header + line.repeat(Math.floor((fileBytes - header.length) / line.length));
  const form = new FormData();
  form.set('project', String(project.id));
  form.set('pipeline', String(pipeline.id));
  form.set('dry_run', 'true');
  form.set('file', new Blob([file], { type: 'text/csv' }), 'shots.csv');

  const started = performance.now();
  const response = await fetch(`${ctx.base}/api/units/import/`, {
    method: 'POST',
    headers: { authorization: ctx.authorization },
    body: form,
  });
  await response.arrayBuffer();
  const seconds = (performance.now() - started) / 1000;
  const megabytes = Math.round(file.length / (1024 * 1024));
  const lines = (file.length / line.length / 1e6).toFixed(1);
  return `${megabytes} MB CSV import (${lines} M lines), answered ${response.status} in ${seconds.toFixed(1)} s`;
}
