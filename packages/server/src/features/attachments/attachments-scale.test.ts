import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { TAttachment } from '@stageline/shared';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { relaxedLimits } from '../../../test/accounts';
import { fileScene, multipart, randomStream } from '../../../test/files';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildTeam } from '../../../test/workspaces';
import { openDatabase } from '../../db';

let t: TestApp;
let dataDir: string;
let origin: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'stageline-files-'));
  t = await buildTestApp({ authLimits: relaxedLimits, database: await openDatabase({ dataDir }) });
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
  await t?.database.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The highest resident memory of this process while `work` runs (sampled every 20 ms). */
async function peakMemoryDuring<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

const MB = 1024 * 1024;

/**
 * The database here is PGlite on disk, as in production: in memory (the other tests' copies), the
 * stored 100 MB would count as the server's memory.
 */
test(
  'a 100 MB upload streams through a real socket into the database and back, the server growing by < 50 MB',
  { timeout: 300_000 },
  async () => {
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    const size = 100 * MB;
    const send = (bytes: number) => {
      const { payload, headers } = multipart({ task }, { name: 'turntable.mov', data: randomStream(bytes) });
      return new Promise<{ status: number; body: string }>((resolve, reject) => {
        const call = request(`${origin}/api/attachments/`, {
          method: 'POST',
          headers: { ...team.member.headers, ...headers },
        });
        call.on('response', (response) => {
          let body = '';
          response.setEncoding('utf8').on('data', (piece: string) => (body += piece));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        });
        call.on('error', reject);
        void pipeline(payload as NodeJS.ReadableStream, call).catch(reject);
      });
    };
    // A first, small upload loads what any upload loads (sharp aside: not an image), so the measure
    // below is what streaming 100 MB costs.
    expect((await send(10 * MB)).status).toBe(201);
    const uploaded = await peakMemoryDuring(() => send(size));
    expect(uploaded.result.status, uploaded.result.body).toBe(201);
    const file = JSON.parse(uploaded.result.body) as TAttachment;
    expect(file.size).toBe(size);
    expect(uploaded.growth, `grew by ${Math.round(uploaded.growth / MB)} MB`).toBeLessThan(50 * MB);

    const downloaded = await peakMemoryDuring(async () => {
      const response = await fetch(`${origin}${file.content_url}`);
      let bytes = 0;
      for await (const piece of response.body!) bytes += (piece as Uint8Array).length;
      return { status: response.status, bytes };
    });
    expect(downloaded.result).toEqual({ status: 200, bytes: size });
    expect(downloaded.growth, `grew by ${Math.round(downloaded.growth / MB)} MB`).toBeLessThan(50 * MB);
  },
);
