import { randomBytes } from 'node:crypto';
import { eq, like } from 'drizzle-orm';
import sharp from 'sharp';
import type { TAttachment, TAttachmentList, TMatrixPage } from '@stageline/shared';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { relaxedLimits } from '../../../test/accounts';
import { allowAllFileTypes, attach, fileScene, mp4Head, upload } from '../../../test/files';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { buildComment, listening, openStream } from '../../../test/live';
import { as, buildTeam } from '../../../test/workspaces';
import { schema } from '../../db';
import { contentDisposition, parseRange } from './send';
import { sweepAttachments } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
});

const png = () =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

/** GET of a content URL with no bearer header, as an `<img>` or `<video>` makes it. */
const fetchUrl = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

const chunksOf = async (attachmentId: number) => {
  const [row] = await t.database.db.select().from(schema.attachments).where(eq(schema.attachments.id, attachmentId));
  if (!row) return [];
  return t.database.db
    .select({ seq: schema.fileChunks.seq })
    .from(schema.fileChunks)
    .where(eq(schema.fileChunks.key, row.storageKey));
};

describe('attachments', () => {
  test('a guest attaches an image to a task: type from the bytes, Unicode name, thumbnail, signed URLs, list', async () => {
    const team = await buildTeam(t);
    const { task, unit } = await fileScene(t, team);
    const image = await png();
    const file = await attach(
      t,
      team.guest,
      { task },
      { name: 'Раскадровка v3 🎬.png', type: 'text/plain', data: image },
    );
    expect(file).toMatchObject({
      name: 'Раскадровка v3 🎬.png',
      size: image.length,
      content_type: 'image/png',
      author: { id: team.guest.id, username: team.guest.username },
      task,
      unit: null,
      comment: null,
      round: 1,
      preview: 'image',
      thumbnail_url: null,
      thumbnail_pending: true,
      abilities: { delete: true },
    });
    expect(file.content_url).toMatch(/^\/api\/attachments\/\d+\/content\/\?token=/);

    const bytes = await fetchUrl(file.content_url);
    expect(bytes.statusCode).toBe(200);
    expect(bytes.rawPayload.equals(image)).toBe(true);
    expect(bytes.headers['content-type']).toBe('image/png');
    expect(bytes.headers['content-disposition']).toMatch(/^inline; filename=".*"; filename\*=UTF-8''/);
    expect(bytes.headers['content-disposition']).toContain(encodeURIComponent('Раскадровка'));
    expect(bytes.headers['x-content-type-options']).toBe('nosniff');
    // The thumbnail is made after the answer (docs/files.md, "Images").
    await t.app.thumbnails.idle();
    const made = (await as(t, team.guest)('GET', `/api/attachments/${file.id}/`)).json<TAttachment>();
    expect(made.thumbnail_pending).toBe(false);
    expect(made.thumbnail_url).toMatch(/\/thumbnail\//);
    const thumbnail = await fetchUrl(made.thumbnail_url!);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    expect(await sharp(thumbnail.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 320, height: 240 });

    // The bearer header works too; a token of another file or a forged one does not.
    expect((await fetchUrl(`/api/attachments/${file.id}/content/`, team.member.headers)).statusCode).toBe(200);
    expect((await fetchUrl(`/api/attachments/${file.id}/content/`)).statusCode).toBe(401);
    const other = await attach(t, team.member, { unit: unit.id }, { name: 'notes.txt', data: Buffer.from('hello') });
    const token = new URL(other.content_url, 'http://x').searchParams.get('token')!;
    expect((await fetchUrl(`/api/attachments/${file.id}/content/?token=${token}`)).statusCode).toBe(401);
    expect((await fetchUrl(`/api/attachments/${file.id}/content/?token=${token}x`)).statusCode).toBe(401);
    expect(other).toMatchObject({
      content_type: 'text/plain',
      preview: null,
      thumbnail_url: null,
      thumbnail_pending: false,
      unit: unit.id,
      round: null,
    });

    const meta = await as(t, team.admin)('GET', `/api/attachments/${file.id}/`);
    expect(meta.json<TAttachment>()).toMatchObject({ id: file.id, abilities: { delete: true } });
    const byMember = await as(t, team.member)('GET', `/api/attachments/?task=${task}`);
    expect(byMember.json<TAttachmentList>()).toMatchObject({
      count: 1,
      results: [{ id: file.id, abilities: { delete: false } }],
    });
    const ofUnit = await as(t, team.guest)('GET', `/api/attachments/?unit=${unit.id}`);
    expect(ofUnit.json<TAttachmentList>().results.map((a) => a.id)).toEqual([other.id]);
  });

  test('a spoofed type and an SVG with a script are downloads with nosniff and a sandbox policy', async () => {
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    // A page is refused by default (decision 198); where an Admin allows it, it is still never run.
    await allowAllFileTypes(t, team);
    const html = await attach(
      t,
      team.member,
      { task },
      {
        name: 'render.png',
        type: 'image/png',
        data: Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>'),
      },
    );
    expect(html).toMatchObject({ content_type: 'text/html', preview: null });
    const svg = await attach(
      t,
      team.member,
      { task },
      {
        name: 'logo.svg',
        type: 'image/svg+xml',
        data: Buffer.from(
          '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        ),
      },
    );
    expect(svg).toMatchObject({ content_type: 'image/svg+xml', preview: null, thumbnail_url: null });
    for (const file of [html, svg]) {
      const served = await fetchUrl(file.content_url);
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-disposition']).toMatch(/^attachment; filename="/);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-security-policy']).toContain('sandbox');
      expect(served.headers['content-security-policy']).toContain("default-src 'none'");
    }
    const video = await attach(
      t,
      team.member,
      { task },
      { name: 'turntable.mp4', data: Buffer.concat([mp4Head, randomBytes(5000)]) },
    );
    expect(video).toMatchObject({ content_type: 'video/mp4', preview: 'video' });
    const pdf = await attach(
      t,
      team.member,
      { task },
      {
        name: 'board.pdf',
        data: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1'),
      },
    );
    expect(pdf).toMatchObject({ content_type: 'application/pdf', preview: 'pdf' });
    expect((await fetchUrl(pdf.content_url)).headers['content-disposition']).toMatch(/^inline/);
  });

  test('Range: parts across chunk boundaries, suffixes, 416 past the end', async () => {
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    const data = Buffer.concat([mp4Head, randomBytes(3 * 1024 * 1024 + 123)]);
    const file = await attach(t, team.member, { task }, { name: 'shot.mp4', data });
    expect(await chunksOf(file.id)).toHaveLength(4);
    const whole = await fetchUrl(file.content_url);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.equals(data)).toBe(true);

    const part = await fetchUrl(file.content_url, { range: 'bytes=1048570-2097160' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1048570-2097160/${data.length}`);
    expect(part.rawPayload.equals(data.subarray(1048570, 2097161))).toBe(true);
    const open = await fetchUrl(file.content_url, { range: 'bytes=3145728-' });
    expect(open.rawPayload.equals(data.subarray(3145728))).toBe(true);
    const suffix = await fetchUrl(file.content_url, { range: 'bytes=-10' });
    expect(suffix.rawPayload.equals(data.subarray(data.length - 10))).toBe(true);
    const past = await fetchUrl(file.content_url, { range: `bytes=${data.length}-` });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${data.length}`);
  });

  test('who may: members see and attach, non-members 404, signed out 401; delete by the author or Admin+', async () => {
    const team = await buildTeam(t);
    const { task, unit } = await fileScene(t, team);
    const file = await attach(t, team.guest, { task }, { name: 'ref.txt', data: Buffer.from('reference') });
    const outsider = as(t, team.outsider);
    expect((await upload(t, team.outsider, { task }, { name: 'x.txt', data: Buffer.from('x') })).statusCode).toBe(404);
    expect((await upload(t, null, { task }, { name: 'x.txt', data: Buffer.from('x') })).statusCode).toBe(401);
    expect((await outsider('GET', `/api/attachments/?task=${task}`)).statusCode).toBe(404);
    expect((await outsider('GET', `/api/attachments/?unit=${unit.id}`)).statusCode).toBe(404);
    expect((await outsider('GET', `/api/attachments/${file.id}/`)).statusCode).toBe(404);
    expect((await fetchUrl(`/api/attachments/${file.id}/content/`, team.outsider.headers)).statusCode).toBe(404);
    expect((await outsider('DELETE', `/api/attachments/${file.id}/`)).statusCode).toBe(404);
    // A link signed for a member stops working once they leave.
    await t.database.db.delete(schema.memberships).where(eq(schema.memberships.userId, team.guest.id));
    expect((await fetchUrl(file.content_url)).statusCode).toBe(404);

    const mine = await attach(t, team.member, { task }, { name: 'mine.txt', data: Buffer.from('mine') });
    expect((await as(t, team.owner)('GET', `/api/attachments/${mine.id}/`)).json<TAttachment>().abilities.delete).toBe(
      true,
    );
    const other = await attach(t, team.admin, { task }, { name: 'admin.txt', data: Buffer.from('admin') });
    expect((await as(t, team.member)('DELETE', `/api/attachments/${other.id}/`)).statusCode).toBe(403);
    expect((await as(t, team.member)('DELETE', `/api/attachments/${mine.id}/`)).statusCode).toBe(204);
    expect((await as(t, team.admin)('DELETE', `/api/attachments/${file.id}/`)).statusCode).toBe(204);
    expect((await as(t, team.admin)('DELETE', `/api/attachments/${file.id}/`)).statusCode).toBe(404);
    expect(await chunksOf(file.id)).toEqual([]);
    expect((await fetchUrl(mine.content_url)).statusCode).toBe(404);
    expect((await as(t, team.member)('GET', `/api/attachments/?task=${task}`)).json<TAttachmentList>().count).toBe(1);
  });

  test('files on comments: the author attaches; the task lists them with their comment; the matrix counts', async () => {
    const team = await buildTeam(t);
    const { task, flow } = await fileScene(t, team);
    const comment = await buildComment(t, team.guest, { task }, 'See the shot');
    const shot = await attach(t, team.guest, { comment: comment.id }, { name: 'screenshot.png', data: await png() });
    expect(shot).toMatchObject({ comment: comment.id, task: null, round: 1, preview: 'image' });
    expect(
      (await upload(t, team.member, { comment: comment.id }, { name: 'x.txt', data: Buffer.from('x') })).statusCode,
    ).toBe(403);
    const list = await as(t, team.member)('GET', `/api/attachments/?task=${task}`);
    expect(list.json<TAttachmentList>().results).toMatchObject([{ id: shot.id, comment: comment.id }]);

    // The matrix cell counts the task's files and its comments' (the paperclip).
    await attach(t, team.member, { task }, { name: 'v1.txt', data: Buffer.from('v1') });
    const matrix = await as(t, team.guest)('GET', `/api/units/matrix/?pipeline=${flow.pipeline.id}`);
    expect(matrix.json<TMatrixPage>().rows[0]!.tasks[0]).toMatchObject({ id: task, files: 2 });
  });

  test('rounds: files before a submit go with the round it opens, files during review with the open one', async () => {
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    const member = as(t, team.member);
    expect((await member('POST', `/api/tasks/${task}/start/`)).statusCode).toBe(200);
    const v1 = await attach(t, team.member, { task }, { name: 'v1.txt', data: Buffer.from('v1') });
    expect((await member('POST', `/api/tasks/${task}/submit/`)).statusCode).toBe(200);
    const note = await attach(t, team.guest, { task }, { name: 'note.txt', data: Buffer.from('note') });
    const rejected = await as(t, team.guest)('POST', `/api/tasks/${task}/reject/`, { comment: 'Again' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const v2 = await attach(t, team.member, { task }, { name: 'v2.txt', data: Buffer.from('v2') });
    expect([v1.round, note.round, v2.round]).toEqual([1, 1, 2]);
  });

  test('members hear of files attached and deleted on the live stream; outsiders do not', async () => {
    const base = await listening(t);
    const team = await buildTeam(t);
    const { task } = await fileScene(t, team);
    const member = await openStream(base, team.member);
    const outsider = await openStream(base, team.outsider);
    try {
      const file = await attach(t, team.guest, { task }, { name: 'ref.txt', data: Buffer.from('ref') });
      const created = await member.next((m) => m.event === 'files');
      expect(created.data).toEqual({ id: file.id, action: 'created' });
      expect((await as(t, team.guest)('DELETE', `/api/attachments/${file.id}/`)).statusCode).toBe(204);
      const deleted = await member.next(
        (m) => m.event === 'files' && (m.data as { action: string }).action === 'deleted',
      );
      expect(deleted.data).toEqual({ id: file.id, action: 'deleted' });
      expect(outsider.messages.filter((m) => m.event === 'files')).toEqual([]);
    } finally {
      member.close();
      outsider.close();
    }
  });

  test('bad uploads: no target, two targets, a target after the file, not multipart, no file', async () => {
    const team = await buildTeam(t);
    const { task, unit } = await fileScene(t, team);
    const file = { name: 'x.txt', data: Buffer.from('x') };
    const none = await upload(t, team.member, {}, file, 'ru');
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ task: ['Файлы прикрепляются к задаче, юниту или комментарию'] });
    expect((await upload(t, team.member, { task, unit: unit.id }, file)).statusCode).toBe(400);
    expect((await upload(t, team.member, { task: 'abc' }, file)).statusCode).toBe(400);
    expect((await upload(t, team.member, { task: 2147483647 }, file)).statusCode).toBe(404);
    expect((await as(t, team.member)('POST', '/api/attachments/', { task })).statusCode).toBe(415);
    const boundary = '----x';
    const onlyField = await t.app.inject({
      method: 'POST',
      url: '/api/attachments/',
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="task"\r\n\r\n${task}\r\n--${boundary}--\r\n`,
      headers: { ...team.member.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(onlyField.statusCode).toBe(400);
    expect((await as(t, team.member)('GET', '/api/attachments/')).statusCode).toBe(400);
  });

  test('deleting a unit leaves its files to the sweep job, which deletes rows and bytes', async () => {
    const team = await buildTeam(t);
    const { task, unit } = await fileScene(t, team);
    const onTask = await attach(t, team.member, { task }, { name: 'a.mov', data: randomBytes(1_500_000) });
    const onUnit = await attach(t, team.member, { unit: unit.id }, { name: 'b.mov', data: randomBytes(10) });
    const [before] = await t.database.db.select().from(schema.attachments).where(eq(schema.attachments.id, onTask.id));
    expect((await as(t, team.admin)('DELETE', `/api/units/${unit.id}/`)).statusCode).toBe(204);
    expect((await fetchUrl(onTask.content_url)).statusCode).toBe(404);
    expect(await chunksOf(onTask.id)).toHaveLength(2);
    expect(await sweepAttachments(t.database.db, t.app.fileStorage)).toBeGreaterThanOrEqual(2);
    const left = await t.database.db.select().from(schema.attachments).where(eq(schema.attachments.id, onUnit.id));
    expect(left).toEqual([]);
    expect(
      await t.database.db.select().from(schema.fileChunks).where(like(schema.fileChunks.key, before!.storageKey)),
    ).toEqual([]);

    // Deleting a whole workspace: the same.
    const other = await buildTeam(t);
    const scene = await fileScene(t, other);
    const kept = await attach(t, other.member, { task: scene.task }, { name: 'c.mov', data: randomBytes(10) });
    expect((await as(t, other.owner)('DELETE', `/api/workspaces/${other.workspace.id}/`)).statusCode).toBe(204);
    expect(await chunksOf(kept.id)).toHaveLength(1);
    expect(await sweepAttachments(t.database.db, t.app.fileStorage)).toBe(1);
    expect(await chunksOf(kept.id)).toEqual([]);
  });
});

describe('Range and Content-Disposition', () => {
  test('one range of bytes, or the whole file', () => {
    expect(parseRange(undefined, 100)).toBeUndefined();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=5-2', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    // Several ranges, another unit or nonsense: the whole file, as RFC 9110 allows.
    expect(parseRange('bytes=0-1,5-6', 100)).toBeUndefined();
    expect(parseRange('items=0-1', 100)).toBeUndefined();
    expect(parseRange('bytes=-', 100)).toBeUndefined();
  });

  test('the Unicode name and an ASCII fallback without quotes or backslashes', () => {
    expect(contentDisposition('attachment', 'a "b"\\c.txt')).toBe(
      `attachment; filename="a _b__c.txt"; filename*=UTF-8''a%20%22b%22%5Cc.txt`,
    );
    expect(contentDisposition('inline', 'Кадр (1).png')).toBe(
      `inline; filename="____ (1).png"; filename*=UTF-8''%D0%9A%D0%B0%D0%B4%D1%80%20%281%29.png`,
    );
  });
});

describe('limits', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await buildTestApp({
      authLimits: relaxedLimits,
      config: { maxUploadBytes: 1024 * 1024, workspaceQuotaBytes: 3 * 1024 * 1024 },
    });
  });
  afterAll(async () => {
    await small?.close();
  });

  test('a file over MAX_UPLOAD_MB and a workspace past its quota are 413, translated, with nothing kept', async () => {
    const team = await buildTeam(small);
    const { task } = await fileScene(small, team);
    const big = await upload(
      small,
      team.member,
      { task },
      { name: 'big.mov', data: randomBytes(1024 * 1024 + 1) },
      'ru',
    );
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ code: 'payload_too_large', detail: 'Файл может быть не больше 1 МБ.' });
    expect((await as(small, team.member)('GET', `/api/attachments/?task=${task}`)).json<TAttachmentList>().count).toBe(
      0,
    );

    for (let i = 0; i < 3; i++)
      await attach(small, team.member, { task }, { name: `${i}.mov`, data: randomBytes(1000 * 1024) });
    const over = await upload(small, team.member, { task }, { name: 'over.mov', data: randomBytes(200 * 1024) });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ detail: 'The files of this workspace would exceed its 3 MB.' });
    const full = await upload(small, team.member, { task }, { name: 'small.mov', data: randomBytes(10 * 1024) });
    expect(full.statusCode).toBe(201);
    const rows = await small.database.db
      .select()
      .from(schema.attachments)
      .where(eq(schema.attachments.workspaceId, team.workspace.id));
    expect(rows).toHaveLength(4);
    // Nothing of the refused uploads is left in storage.
    const chunkKeys = new Set(
      (await small.database.db.select({ key: schema.fileChunks.key }).from(schema.fileChunks)).map((c) => c.key),
    );
    expect(chunkKeys).toEqual(new Set(rows.map((r) => r.storageKey)));
  });
});
