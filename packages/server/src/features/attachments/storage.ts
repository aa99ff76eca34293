import { Readable } from 'node:stream';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { GetObjectCommandOutput, S3Client } from '@aws-sdk/client-s3';
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import { rowsOf, schema, type Db } from '../../db';

/** Bytes `start` to `end` of a file, both included (an HTTP `Range`). */
export type ByteRange = { start: number; end: number };

/**
 * Where the bytes of files live (docs/files.md): in PostgreSQL by default, or in S3-compatible
 * object storage when `S3_URL` is set. Both stream in and out; neither holds a whole file in memory.
 */
export interface FileStorage {
  readonly kind: 'database' | 's3';
  /** Stores the stream under `key`; answers the number of bytes stored. A failing stream stores nothing usable. */
  put(key: string, body: Readable): Promise<number>;
  /** The bytes of `key`, or of a range of them. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Forgets `key`; a key that is not there is no error. */
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Size of one row of `file_chunks`: large enough for few rows, small enough to stream. */
export const chunkBytes = 1024 * 1024;
/** Bytes per hex string sent or read: under V8's large-object size (128 KiB) once in hex. */
const sliceBytes = 48 * 1024;

/**
 * Files in the database: `file_chunks` rows of 1 MiB, written as they arrive and read one at a time,
 * so it works on the embedded database and for every process sharing one PostgreSQL.
 */
export function databaseStorage(db: Db): FileStorage {
  const { fileChunks } = schema;
  return {
    kind: 'database',
    async put(key, body) {
      let seq = 0;
      let total = 0;
      let buffer = Buffer.allocUnsafe(chunkBytes);
      let filled = 0;
      const flush = async () => {
        if (filled === 0) return;
        // As base64 text decoded by the database: PGlite would turn a bytea parameter into hex one
        // byte at a time in JavaScript (a million small strings a chunk); Buffer's base64 and
        // decode() in SQL cost next to nothing.
        const text = buffer.toString('base64', 0, filled);
        await db.execute(
          sql`insert into file_chunks (key, seq, data) values (${key}, ${seq}, decode(${text}, 'base64'))`,
        );
        seq += 1;
        filled = 0;
      };
      try {
        for await (const piece of body) {
          let data = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
          total += data.length;
          while (data.length > 0) {
            const taken = data.copy(buffer, filled, 0, Math.min(data.length, chunkBytes - filled));
            filled += taken;
            data = data.subarray(taken);
            if (filled === chunkBytes) await flush();
          }
        }
        await flush();
      } catch (error) {
        await db.delete(fileChunks).where(eq(fileChunks.key, key));
        throw error;
      } finally {
        buffer = Buffer.alloc(0);
      }
      return total;
    },
    async get(key, range) {
      const first = range ? Math.floor(range.start / chunkBytes) : 0;
      const last = range ? Math.floor(range.end / chunkBytes) : Number.MAX_SAFE_INTEGER;
      const [firstSeq] = await db
        .select({ seq: fileChunks.seq })
        .from(fileChunks)
        .where(
          and(eq(fileChunks.key, key), gte(fileChunks.seq, first), lte(fileChunks.seq, Math.min(last, 2 ** 31 - 1))),
        )
        .orderBy(asc(fileChunks.seq))
        .limit(1);
      async function* chunks() {
        if (!firstSeq) return;
        for (let seq = firstSeq.seq; seq <= last; seq++) {
          const offset = seq * chunkBytes;
          let from = range && seq === first ? range.start - offset : 0;
          const to = range && seq === last ? range.end - offset + 1 : chunkBytes;
          // A chunk is read in slices of hex text, as it is written (see `put`).
          while (from < to) {
            const length = Math.min(sliceBytes, to - from);
            const [row] = await rowsOf<{ data: string | null }>(
              db,
              sql`select encode(substring(data from ${from + 1} for ${length}), 'hex') as data
                  from file_chunks where key = ${key} and seq = ${seq}`,
            );
            if (!row?.data) return;
            yield Buffer.from(row.data, 'hex');
            if (row.data.length < length * 2) break;
            from += length;
          }
        }
      }
      return Readable.from(chunks(), { objectMode: false });
    },
    async delete(key) {
      await db.delete(fileChunks).where(eq(fileChunks.key, key));
    },
    async close() {},
  };
}

/**
 * `S3_URL` read as `http(s)://ACCESS_KEY:SECRET@host[:port]/bucket[?region=…]`: the endpoint, the
 * bucket and the keys in one variable; path-style addressing, so any S3-compatible server works.
 */
export function parseS3Url(value: string) {
  const url = new URL(value);
  return {
    endpoint: url.origin,
    bucket: decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, '')),
    region: url.searchParams.get('region') ?? 'us-east-1',
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
  };
}

/** Files in an S3-compatible bucket, uploaded in 5 MiB parts (two at a time) and streamed back through the app. */
export function s3Storage(s3Url: string): FileStorage {
  const { endpoint, bucket, region, accessKeyId, secretAccessKey } = parseS3Url(s3Url);
  // The SDK is loaded at the first file call, not when the server starts: it was a fifth of the
  // start's module loading (docs/decisions.md, entry 152).
  let loading: Promise<{ client: S3Client; sdk: typeof S3Sdk }> | undefined;
  let closed = false;
  const s3 = () =>
    (loading ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        endpoint,
        region,
        forcePathStyle: true,
        credentials: { accessKeyId, secretAccessKey },
        // Checksums only where S3 requires them: S3-compatible servers differ in what else they accept.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    })));
  return {
    kind: 's3',
    async put(key, body) {
      let total = 0;
      async function* counted() {
        for await (const piece of body) {
          const data = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
          total += data.length;
          yield data;
        }
      }
      const [{ client }, { Upload }] = await Promise.all([s3(), import('@aws-sdk/lib-storage')]);
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: key, Body: Readable.from(counted(), { objectMode: false }) },
        queueSize: 2,
        partSize: 5 * 1024 * 1024,
        leavePartsOnError: false,
      });
      await upload.done();
      return total;
    },
    async get(key, range) {
      const { client, sdk } = await s3();
      const answer: GetObjectCommandOutput = await client.send(
        new sdk.GetObjectCommand({
          Bucket: bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return answer.Body as Readable;
    },
    async delete(key) {
      const { client, sdk } = await s3();
      await client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async close() {
      if (closed) return;
      closed = true;
      if (loading) (await loading).client.destroy();
    },
  };
}

/** The storage the configuration asks for. */
export function createStorage({ db, s3Url }: { db: Db; s3Url: string | undefined }): FileStorage {
  return s3Url ? s3Storage(s3Url) : databaseStorage(db);
}
