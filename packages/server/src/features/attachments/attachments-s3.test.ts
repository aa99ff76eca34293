import { randomBytes } from 'node:crypto';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { TAttachment } from '@stageline/shared';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { relaxedLimits } from '../../../test/accounts';
import { attach, fileScene, mp4Head } from '../../../test/files';
import { buildTestApp, type TestApp } from '../../../test/helpers';
import { startS3 } from '../../../test/s3';
import { as, buildTeam } from '../../../test/workspaces';
import { schema } from '../../db';
import { sweepAttachments } from './service';
import { parseS3Url } from './storage';

let s3: Awaited<ReturnType<typeof startS3>>;
let t: TestApp;
let client: S3Client;
let bucket: string;
beforeAll(async () => {
  s3 = await startS3();
  t = await buildTestApp({ authLimits: relaxedLimits, config: { s3Url: s3.url } });
  const parsed = parseS3Url(s3.url);
  bucket = parsed.bucket;
  client = new S3Client({
    endpoint: parsed.endpoint,
    region: parsed.region,
    forcePathStyle: true,
    credentials: { accessKeyId: parsed.accessKeyId, secretAccessKey: parsed.secretAccessKey },
  });
});
afterAll(async () => {
  client?.destroy();
  await t?.close();
  await s3?.stop();
});

const keys = async () =>
  ((await client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key!);
const keyOf = async (id: number) =>
  (await t.database.db.select().from(schema.attachments).where(eq(schema.attachments.id, id)))[0]?.storageKey;

test('with S3_URL the bytes live in the bucket: upload in parts, thumbnail, Range, delete, sweep', async () => {
  expect(t.app.fileStorage.kind).toBe('s3');
  const team = await buildTeam(t);
  const { task, unit } = await fileScene(t, team);

  // Over 5 MiB: a multipart upload of two parts.
  const video = Buffer.concat([mp4Head, randomBytes(6 * 1024 * 1024)]);
  const file = await attach(t, team.member, { task }, { name: 'turntable.mp4', data: video });
  expect(file).toMatchObject({ size: video.length, content_type: 'video/mp4', preview: 'video' });
  const key = (await keyOf(file.id))!;
  const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  expect(head.ContentLength).toBe(video.length);
  expect(await t.database.db.select().from(schema.fileChunks)).toEqual([]);

  const whole = await t.app.inject({ method: 'GET', url: file.content_url });
  expect(whole.rawPayload.equals(video)).toBe(true);
  const part = await t.app.inject({
    method: 'GET',
    url: file.content_url,
    headers: { range: 'bytes=5242870-5242900' },
  });
  expect(part.statusCode).toBe(206);
  expect(part.rawPayload.equals(video.subarray(5242870, 5242901))).toBe(true);

  const image = await sharp({ create: { width: 640, height: 640, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toBuffer();
  const photo = await attach(t, team.guest, { unit: unit.id }, { name: 'ref.jpg', data: image });
  expect(photo).toMatchObject({ content_type: 'image/jpeg', preview: 'image', thumbnail_pending: true });
  await t.app.thumbnails.idle();
  const made = (await as(t, team.guest)('GET', `/api/attachments/${photo.id}/`)).json<TAttachment>();
  const thumbnail = await t.app.inject({ method: 'GET', url: made.thumbnail_url! });
  expect(await sharp(thumbnail.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 320 });

  expect((await as(t, team.member)('DELETE', `/api/attachments/${file.id}/`)).statusCode).toBe(204);
  expect(await keys()).not.toContain(key);

  // Deleting the unit leaves the photo to the sweep, which removes the object.
  const photoKey = (await keyOf(photo.id))!;
  expect(await keys()).toContain(photoKey);
  expect((await as(t, team.admin)('DELETE', `/api/units/${unit.id}/`)).statusCode).toBe(204);
  expect(await sweepAttachments(t.database.db, t.app.fileStorage)).toBe(1);
  expect(await keys()).toEqual([]);
  expect((await as(t, team.member)('GET', `/api/attachments/?task=${task}`)).statusCode).toBe(404);
});
