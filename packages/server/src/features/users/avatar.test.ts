import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { Limits } from '@stageline/shared';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Database } from '../../db';
import { bearer, relaxedLimits, signUp } from '../../../test/accounts';
import { buildTestApp, createTestDatabase, type TestApp } from '../../../test/helpers';
import { imageBomb } from '../../../test/files';
import { startMailbox, type Mailbox } from '../../../test/mailbox';

let database: Database;
let mailbox: Mailbox;
let t: TestApp;

beforeAll(async () => {
  // The image bomb takes seconds to make: made once, beside the database.
  [database, mailbox] = await Promise.all([createTestDatabase(), startMailbox(), imageBomb()]);
  t = await buildTestApp({ database, config: { smtpUrl: mailbox.url }, authLimits: relaxedLimits });
});
afterAll(async () => {
  await t?.close();
  await mailbox?.close();
  await database?.close();
});

/** A multipart/form-data body with one file field. */
function multipart(file: Buffer, { field = 'file', filename = 'avatar.png', type = 'image/png' } = {}) {
  const boundary = `----stageline${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      `Content-Type: ${type}\r\n\r\n`,
  );
  return {
    payload: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .png()
    .toBuffer();

async function upload(
  tokens: { access: string },
  file: Buffer,
  options?: Parameters<typeof multipart>[1],
  headers: Record<string, string> = {},
) {
  const body = multipart(file, options);
  return t.app.inject({
    method: 'POST',
    url: '/api/users/me/avatar/',
    payload: body.payload,
    headers: { ...bearer(tokens), ...body.headers, ...headers },
  });
}

describe('avatar', () => {
  test('a PNG is re-encoded to a 256×256 WebP, served with a long cache, and cleared', async () => {
    const account = await signUp(t.app, mailbox);
    const response = await upload(account.tokens, await png(640, 320));
    expect(response.statusCode, response.body).toBe(200);
    const { avatar } = response.json<{ avatar: string }>();
    expect(response.json()).toEqual({ message: 'Avatar saved', avatar: `/api/users/${account.id}/avatar/?v=1` });

    const me = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(account.tokens) });
    expect(me.json()).toMatchObject({ avatar });

    const image = await t.app.inject({ method: 'GET', url: avatar });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(image.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });

    const second = await upload(account.tokens, await png(300, 300), { filename: 'me.jpg', type: 'image/jpeg' });
    expect(second.json()).toMatchObject({ avatar: `/api/users/${account.id}/avatar/?v=2` });
    const stale = await t.app.inject({ method: 'GET', url: avatar });
    expect(stale.headers['cache-control']).toBe('no-cache');

    const cleared = await t.app.inject({
      method: 'DELETE',
      url: '/api/users/me/avatar/',
      headers: bearer(account.tokens),
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ message: 'Avatar cleared' });
    const after = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(account.tokens) });
    expect(after.json()).toMatchObject({ avatar: null });
    expect((await t.app.inject({ method: 'GET', url: avatar })).statusCode).toBe(404);
  });

  test('JPEG and WebP are accepted too', async () => {
    const account = await signUp(t.app, mailbox);
    const base = sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } });
    expect((await upload(account.tokens, await base.clone().jpeg().toBuffer())).statusCode).toBe(200);
    expect((await upload(account.tokens, await base.clone().webp().toBuffer())).statusCode).toBe(200);
  });

  test('over 2 MB is 413', async () => {
    const account = await signUp(t.app, mailbox);
    const header = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const big = Buffer.concat([header, randomBytes(2 * 1024 * 1024 + 10)]);
    const response = await upload(account.tokens, big);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: 'Request is too large.', code: 'payload_too_large' });
  });

  test('a text file named .png, or a broken image, is 400', async () => {
    const account = await signUp(t.app, mailbox);
    const text = await upload(account.tokens, Buffer.from('just some text, not an image\n'.repeat(20)));
    expect(text.statusCode).toBe(400);
    // Not an image at all: it says so, not only which types are taken (decision 193).
    expect(text.json()).toEqual({
      detail: 'This file is not an image. Upload a PNG, JPEG or WebP image.',
      code: 'bad_request',
    });
    const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(200)]);
    const zipped = await upload(account.tokens, zip);
    expect(zipped.json()).toEqual({
      detail: 'This file is not an image. Upload a PNG, JPEG or WebP image.',
      code: 'bad_request',
    });
    const ru = await upload(account.tokens, Buffer.from('plain text\n'.repeat(20)), undefined, {
      'accept-language': 'ru',
    });
    expect(ru.json()).toEqual({
      detail: 'Этот файл не изображение. Загрузите изображение PNG, JPEG или WebP.',
      code: 'bad_request',
    });

    // A broken image or an image of another type is asked for in a type we take.
    const truncated = (await png(200, 200)).subarray(0, 40);
    const broken = await upload(account.tokens, truncated);
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ detail: 'Upload a PNG, JPEG or WebP image.', code: 'bad_request' });

    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const gifAnswer = await upload(account.tokens, gif, { filename: 'a.gif', type: 'image/gif' });
    expect(gifAnswer.statusCode).toBe(400);
    expect(gifAnswer.json()).toEqual({ detail: 'Upload a PNG, JPEG or WebP image.', code: 'bad_request' });
  });

  test('an image bomb (a small file declaring 100 MP) is 400, translated, before anything is decoded', async () => {
    const account = await signUp(t.app, mailbox);
    const bomb = await imageBomb();
    expect(bomb.length).toBeLessThan(Limits.avatar.maxBytes);
    const body = multipart(bomb);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/avatar/',
      payload: body.payload,
      headers: { ...bearer(account.tokens), ...body.headers, 'accept-language': 'ru' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      code: 'bad_request',
      detail: 'Изображение слишком большое: не больше 25 мегапикселей.',
    });
  });

  test('a missing file field is 400; a JSON body is 415', async () => {
    const account = await signUp(t.app, mailbox);
    const wrongField = await upload(account.tokens, await png(10, 10), { field: 'image' });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json()).toEqual({ detail: 'Choose a file to upload.', code: 'bad_request' });

    const json = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/avatar/',
      payload: { file: 'x' },
      headers: bearer(account.tokens),
    });
    expect(json.statusCode).toBe(415);
  });

  test('the avatar of a user without one is 404', async () => {
    const account = await signUp(t.app, mailbox);
    const response = await t.app.inject({ method: 'GET', url: `/api/users/${account.id}/avatar/` });
    expect(response.statusCode).toBe(404);
  });
});
