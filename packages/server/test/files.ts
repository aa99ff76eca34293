import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { TAttachment } from '@stageline/shared';
import { expect } from 'vitest';
import type { TestApp } from './helpers';
import { buildFlow, buildUnit, taskAt } from './units';
import type { Team } from './workspaces';

/** A file of a multipart body: its name, the type the client claims, and its bytes (a stream for big ones). */
export type FilePart = { name: string; type?: string; data: Buffer | Readable };

/**
 * A multipart body of text fields then one file in field `file`, as a browser's FormData sends it;
 * a stream file gives a stream body, so a large upload is never whole in the test's memory either.
 */
export function multipart(fields: Record<string, string | number>, file: FilePart) {
  const boundary = `----stageline${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
      `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  if (Buffer.isBuffer(file.data)) return { payload: Buffer.concat([head, file.data, tail]), headers };
  const data = file.data;
  return {
    payload: Readable.from(
      (async function* () {
        yield head;
        for await (const piece of data) yield piece as Buffer;
        yield tail;
      })(),
    ),
    headers,
  };
}

/** POSTs a file as `user`; answers the raw response. */
export function upload(
  t: TestApp,
  user: { headers: { authorization: string } } | null,
  fields: Record<string, string | number>,
  file: FilePart,
  language?: string,
) {
  const { payload, headers } = multipart(fields, file);
  return t.app.inject({
    method: 'POST',
    url: '/api/attachments/',
    payload,
    headers: { ...(user?.headers ?? {}), ...headers, ...(language ? { 'accept-language': language } : {}) },
  });
}

/** Uploads and expects a 201. */
export async function attach(
  t: TestApp,
  user: { headers: { authorization: string } },
  fields: Record<string, string | number>,
  file: FilePart,
): Promise<TAttachment> {
  const response = await upload(t, user, fields, file);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<TAttachment>();
}

/** A stream of `bytes` pseudo-random bytes made 64 KiB at a time. */
export function randomStream(bytes: number): Readable {
  return Readable.from(
    (async function* () {
      const block = randomBytes(64 * 1024);
      for (let sent = 0; sent < bytes; sent += block.length)
        yield block.subarray(0, Math.min(block.length, bytes - sent));
    })(),
  );
}

/** The first bytes of an MP4 (an `ftyp` box), enough for type detection. */
export const mp4Head = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypmp42'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('mp42isom'),
]);

/** A team and a one-stage flow with a unit: its task has the member as assignee and the guest as reviewer. */
export async function fileScene(t: TestApp, team: Team) {
  const flow = await buildFlow(t, {
    workspace: team.workspace,
    stages: [{ assignees: [team.member], reviewers: [team.guest] }],
    edges: [
      ['root', 0],
      [0, 'end'],
    ],
  });
  const unit = await buildUnit(t, team.member, flow);
  return { flow, unit, task: taskAt(unit, flow, 0) };
}

let bomb: Promise<Buffer> | undefined;

/**
 * A 10,000 × 10,000 interlaced PNG of one colour: about 300 KB that would decode to 400 MB
 * (docs/files.md, "Images"). Made once per test file (a few seconds).
 */
export function imageBomb(): Promise<Buffer> {
  bomb ??= sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#fafafa' } })
    .png({ progressive: true, compressionLevel: 6 })
    .toBuffer();
  return bomb;
}

/**
 * Lets a team's workspace take every kind of file, `other` included (decision 198): for tests of how
 * programs and pages are stored and served, which the default groups refuse.
 */
export async function allowAllFileTypes(t: TestApp, team: Team): Promise<void> {
  const response = await t.app.inject({
    method: 'PUT',
    url: `/api/workspaces/${team.workspace.id}/file_types/`,
    payload: { allowed: ['media', 'documents', 'archives', 'other'] },
    headers: team.owner.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
}
