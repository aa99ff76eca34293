import { PassThrough, Readable } from 'node:stream';
import { and, count, eq, isNull } from 'drizzle-orm';
import sharp from 'sharp';
import type { TAttachment, TTokenPair } from '@stageline/shared';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, login, relaxedLimits } from '../../../test/accounts';
import { allowAllFileTypes, attach, fileScene, imageBomb, multipart, upload } from '../../../test/files';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { listening, openStream } from '../../../test/live';
import { as, buildTeam, type TestUser } from '../../../test/workspaces';
import { schema } from '../../db';

let t: TestApp;
let bomb: Buffer;
beforeAll(async () => {
  [t, bomb] = await Promise.all([buildTestApp({ authLimits: relaxedLimits }), imageBomb()]);
});
afterAll(async () => {
  await t?.close();
});

const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .png()
    .toBuffer();

const fetched = async (user: TestUser, id: number) =>
  (await as(t, user)('GET', `/api/attachments/${id}/`)).json<TAttachment>();

describe('images (docs/files.md, "Images")', () => {
  test('an image bomb is stored and answered, and no thumbnail is made of it', async () => {
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const file = await attach(t, team.guest, { task }, { name: 'bomb.png', data: bomb });
    // Its header declares 100 MP, past the 25 MP of thumbnails: not even queued.
    expect(file).toMatchObject({
      size: bomb.length,
      content_type: 'image/png',
      preview: 'image',
      thumbnail_url: null,
      thumbnail_pending: false,
    });
    await t.app.thumbnails.idle();
    expect(await fetched(team.guest, file.id)).toMatchObject({ thumbnail_url: null, thumbnail_pending: false });
    const bytes = await t.app.inject({ method: 'GET', url: file.content_url });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.rawPayload.equals(bomb)).toBe(true);
  });

  test('over 25 MP gets no thumbnail, also when the size comes after the first bytes (a JPEG after its EXIF)', async () => {
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    const wide = await attach(t, team.member, { task }, { name: 'wide.png', data: await photo(6_000, 5_000) });
    expect(wide).toMatchObject({ thumbnail_url: null, thumbnail_pending: false });

    const jpeg = await sharp({ create: { width: 6_000, height: 5_000, channels: 3, background: '#884422' } })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: 'x'.repeat(30_000) } })
      .toBuffer();
    // Sent 1 KB at a time, the first 4 KB the upload looks at do not say its size: it is queued,
    // and the queue reads the size from the first 256 KB.
    const pieces = Array.from({ length: Math.ceil(jpeg.length / 1024) }, (_, i) =>
      jpeg.subarray(i * 1024, (i + 1) * 1024),
    );
    const late = await attach(t, team.member, { task }, { name: 'late.jpg', data: Readable.from(pieces) });
    expect(late).toMatchObject({ content_type: 'image/jpeg', thumbnail_pending: true });
    await t.app.thumbnails.idle();
    expect(await fetched(team.member, late.id)).toMatchObject({ thumbnail_url: null, thumbnail_pending: false });
  });

  test('a thumbnail is made after the answer, and the workspace hears when it is ready', async () => {
    const base = await listening(t);
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    const stream = await openStream(base, team.member);
    try {
      const file = await attach(t, team.guest, { task }, { name: 'sketch.png', data: await photo(640, 480) });
      expect(file).toMatchObject({ thumbnail_url: null, thumbnail_pending: true });
      const updated = await stream.next(
        (m) => m.event === 'files' && (m.data as { action: string }).action === 'updated',
      );
      expect(updated.data).toEqual({ id: file.id, action: 'updated' });
      const made = await fetched(team.guest, file.id);
      expect(made).toMatchObject({ thumbnail_pending: false });
      const thumbnail = await t.app.inject({ method: 'GET', url: made.thumbnail_url! });
      expect(await sharp(thumbnail.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });
    } finally {
      stream.close();
    }
  });

  test('thumbnails left waiting when a process stopped are made by the next one', async () => {
    const first = await buildTestApp({ authLimits: relaxedLimits });
    try {
      const team = await buildTeam(first);
      const { task } = await fileScene(first, team);
      await first.app.thumbnails.stop(); // as if the process ended before making it
      const file = await attach(first, team.guest, { task }, { name: 'left.png', data: await photo(400, 400) });
      expect(file.thumbnail_pending).toBe(true);
      const next = await buildTestApp({ database: first.database, authLimits: relaxedLimits });
      try {
        await next.app.ready();
        await next.app.thumbnails.idle();
        const made = (
          await next.app.inject({ method: 'GET', url: `/api/attachments/${file.id}/`, headers: team.guest.headers })
        ).json<TAttachment>();
        expect(made.thumbnail_pending).toBe(false);
        expect(made.thumbnail_url).toMatch(/\/thumbnail\//);
      } finally {
        await next.close();
      }
    } finally {
      await first.close();
    }
  });
});

describe('uploads in flight (docs/files.md, "Limits")', () => {
  /** An upload whose body stops after the file's first bytes until `finish()` is called. */
  function heldUpload(user: TestUser, task: number) {
    const data = new PassThrough();
    data.write(Buffer.from('notes, '));
    const { payload, headers } = multipart({ task }, { name: 'held.txt', data });
    const response = t.app.inject({
      method: 'POST',
      url: '/api/attachments/',
      payload,
      headers: { ...user.headers, ...headers },
    });
    return { response, finish: () => data.end(Buffer.from('the rest')) };
  }

  /** Uploads of a user that have begun storing (their row is there, not yet complete). */
  const underWay = async (user: TestUser) => {
    const [row] = await t.database.db
      .select({ n: count() })
      .from(schema.attachments)
      .where(and(eq(schema.attachments.authorId, user.id), isNull(schema.attachments.completedAt)));
    return row!.n;
  };

  test('upload 5 of one user at once is 429, translated; others and later uploads pass', async () => {
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    const held = [1, 2, 3, 4].map(() => heldUpload(team.member, task));
    const deadline = Date.now() + 20_000;
    while ((await underWay(team.member)) < 4) {
      if (Date.now() > deadline) throw new Error('the held uploads did not begin');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const fifth = await upload(t, team.member, { task }, { name: 'five.txt', data: Buffer.from('5') }, 'ru');
    expect(fifth.statusCode, fifth.body).toBe(429);
    expect(fifth.json()).toEqual({
      code: 'rate_limited',
      detail: 'Дождитесь окончания других загрузок: одновременно не больше 4.',
    });
    expect(fifth.headers['retry-after']).toBe('5');
    // Another person is not held up by them.
    await attach(t, team.guest, { task }, { name: 'guest.txt', data: Buffer.from('g') });

    for (const upload of held) upload.finish();
    for (const upload of held) expect((await upload.response).statusCode).toBe(201);
    await attach(t, team.member, { task }, { name: 'after.txt', data: Buffer.from('after') });
  });

  test('eight bombs at once from one user: four stored, four refused, no thumbnail', async () => {
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => upload(t, team.guest, { task }, { name: `bomb-${i}.png`, data: bomb })),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.every((s) => s === 201 || s === 429)).toBe(true);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(4);
    for (const answer of answers.filter((a) => a.statusCode === 201)) {
      expect(answer.json<TAttachment>()).toMatchObject({ thumbnail_url: null, thumbnail_pending: false });
    }
  });
});

describe('file links and names', () => {
  test('signing out ends the file links that session made; the other session keeps its own', async () => {
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    const file = await attach(t, team.member, { task }, { name: 'brief.txt', data: Buffer.from('brief') });
    const second = (await login(t.app, team.member.username)).json<TTokenPair>();
    const link = (
      await t.app.inject({ method: 'GET', url: `/api/attachments/${file.id}/`, headers: bearer(second) })
    ).json<TAttachment>().content_url;
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(200);

    const out = await t.app.inject({ method: 'POST', url: '/api/users/logout/', payload: { refresh: second.refresh } });
    expect(out.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: link, headers: { 'accept-language': 'ru' } });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({
      code: 'token_not_valid',
      detail: 'Ссылка на файл устарела. Обновите страницу.',
    });
    expect((await t.app.inject({ method: 'GET', url: file.content_url })).statusCode).toBe(200);
  });

  test('bidi and zero-width characters leave file and record names', async () => {
    const team = await buildTeam(t);
    const { task, unit } = await fileScene(t, team);
    await allowAllFileTypes(t, team); // .exe is refused by default (decision 198)
    const file = await attach(t, team.member, { task }, { name: 'ev\u202Egnp.exe', data: Buffer.from('MZ') });
    expect(file.name).toBe('evgnp.exe');

    const renamed = await as(t, team.admin)('PATCH', `/api/units/${unit.id}/`, { name: '\u2066Shot\u200B 010\u2069' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<{ name: string }>().name).toBe('Shot 010');
    const workspace = await as(t, team.owner)('POST', '/api/workspaces/', { name: '\uFEFFStudio\u200F' });
    expect(workspace.statusCode, workspace.body).toBe(201);
    expect(workspace.json<{ name: string }>().name).toBe('Studio');
    // Nothing but invisible characters is an empty name.
    const empty = await as(t, team.admin)('PATCH', `/api/units/${unit.id}/`, { name: '\u200B\u202E' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ name: ['Field can not be empty'] });
  });
});
