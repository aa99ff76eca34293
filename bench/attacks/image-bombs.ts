/**
 * Issue 31, item 2: image bombs. One signed-in user uploads 8 PNGs of 10,000 × 10,000 pixels,
 * interlaced and of one colour, in parallel: each is a few hundred KB that would decode to 400 MB.
 * The server reads their size from the header and makes no thumbnail (docs/files.md, "Images"), and
 * refuses the uploads past MAX_UPLOADS_IN_FLIGHT of one user (429). Resolves when every upload is
 * answered, with a line saying what happened; the resilience bench measures health latency and the
 * server's memory meanwhile.
 */
import { crc32, createDeflate } from 'node:zlib';

const Bombs = 8;
const Side = 10_000;

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A black `side` × `side` RGB PNG, Adam7-interlaced: every byte of its seven passes (filter bytes
 * included) is zero, so it is deflated as a stream of zeros without ever holding the 300 MB.
 */
export async function imageBomb(side = Side): Promise<Buffer> {
  const passes = [
    [0, 0, 8, 8],
    [4, 0, 8, 8],
    [0, 4, 4, 8],
    [2, 0, 4, 4],
    [0, 2, 2, 4],
    [1, 0, 2, 2],
    [0, 1, 1, 2],
  ] as const;
  let raw = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const columns = Math.ceil((side - x0) / dx);
    const rows = Math.ceil((side - y0) / dy);
    if (columns > 0 && rows > 0) raw += rows * (1 + columns * 3);
  }
  const deflate = createDeflate({ level: 6 });
  const compressed: Buffer[] = [];
  deflate.on('data', (piece: Buffer) => compressed.push(piece));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const zeros = Buffer.alloc(1024 * 1024);
  for (let left = raw; left > 0; left -= zeros.length) {
    if (!deflate.write(zeros.subarray(0, Math.min(zeros.length, left)))) {
      await new Promise((resolve) => deflate.once('drain', resolve));
    }
  }
  deflate.end();
  await done;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 1], 8); // 8 bits, RGB, deflate, adaptive filtering, Adam7
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.concat(compressed)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Made when the module loads (a few seconds of deflate), so the attack itself is the uploads. */
const bombOnce = imageBomb();

async function post<T>(base: string, authorization: string, path: string, body: object): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export default async function attack(ctx: { base: string; authorization: string }): Promise<string> {
  const { base, authorization } = ctx;
  // Somewhere to attach files: a workspace, a project, a pipeline and a unit of the user's own.
  const workspace = await post<{ id: number }>(base, authorization, '/api/workspaces/', { name: 'Image bombs' });
  const project = await post<{ id: number }>(base, authorization, '/api/projects/', {
    workspace: workspace.id,
    name: 'Bombs',
  });
  const pipeline = await post<{ id: number }>(base, authorization, '/api/pipelines/', {
    project: project.id,
    name: 'Bombs',
  });
  const unit = await post<{ id: number }>(base, authorization, '/api/units/', {
    project: project.id,
    pipeline: pipeline.id,
    name: 'Target',
  });
  const bomb = await bombOnce;

  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: Bombs }, async (_, i) => {
      const form = new FormData();
      form.append('unit', String(unit.id));
      form.append('file', new Blob([new Uint8Array(bomb)], { type: 'image/png' }), `bomb-${i}.png`);
      const response = await fetch(`${base}/api/attachments/`, {
        method: 'POST',
        headers: { authorization },
        body: form,
      });
      const body = (await response.json().catch(() => null)) as {
        thumbnail_url?: string | null;
        thumbnail_pending?: boolean;
      } | null;
      const thumbnail = Boolean(body?.thumbnail_url) || body?.thumbnail_pending === true;
      return { status: response.status, thumbnail, ms: performance.now() - started };
    }),
  );
  const byStatus = new Map<number, number>();
  for (const { status } of answers) byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  const statuses = [...byStatus].map(([status, count]) => `${count} × ${status}`).join(', ');
  const slowest = Math.max(...answers.map((a) => a.ms));
  const thumbnails = answers.filter((a) => a.thumbnail).length;
  return (
    `${Bombs} image bombs (${Side.toLocaleString('en')} × ${Side.toLocaleString('en')} interlaced PNG, ` +
    `${Math.round(bomb.length / 1024)} KB each) in parallel from one user: ${statuses}; ` +
    `all answered in ${Math.round(slowest)} ms; thumbnails made or queued: ${thumbnails}`
  );
}
