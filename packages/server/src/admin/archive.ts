import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';

/**
 * The backup archive (docs/operations.md, "Backup and restore"): a gzipped tar whose first entry,
 * `header.json`, says what it is and from which schema; then each table as `db/<table>.ndjson`
 * (one row a line, as PostgreSQL's `row_to_json` writes it), each stored file as
 * `files/<storage key>`, and last `manifest.json` with every entry's size and SHA-256. Entries are
 * streamed in and out, never held whole in memory.
 */

export const ArchiveFormat = 'stageline-backup';
export const ArchiveVersion = 1;

export type ArchiveHeader = {
  format: typeof ArchiveFormat;
  version: number;
  app: string;
  createdAt: string;
  source: 'pglite' | 'postgres';
  /** Migrations applied to the database backed up, by count and by the last one's tag. */
  migrations: { count: number; last: string | null };
};

export type ManifestEntry = { name: string; bytes: number; sha256: string; rows?: number };
export type Manifest = { entries: ManifestEntry[]; tables: number; rows: number; files: number; fileBytes: number };

/** A refusal of an archive, in words for whoever runs the command. */
export class ArchiveError extends Error {}

/** A pass-through that counts and hashes what goes through it. */
function hashing() {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = new Transform({
    transform(piece: Buffer, _encoding, callback) {
      hash.update(piece);
      bytes += piece.length;
      callback(null, piece);
    },
  });
  return { stream, result: () => ({ bytes, sha256: hash.digest('hex') }) };
}

/** Writes entries into a gzipped tar at `path`; `finish` adds the manifest and closes it. */
export function archiveWriter(path: string) {
  const pack = tar.pack();
  const done = pipeline(pack, createGzip({ level: 1 }), createWriteStream(path));
  // Awaited by `finish`; after `abort` the caller has the first error already.
  done.catch(() => undefined);
  const entries: ManifestEntry[] = [];

  /** One entry of a known size, streamed from `body`; its checksum is taken on the way. */
  async function add(name: string, bytes: number, body: Readable, rows?: number): Promise<void> {
    const counted = hashing();
    const entry = pack.entry({ name, size: bytes });
    await pipeline(body, counted.stream, entry as unknown as Writable);
    const { bytes: seen, sha256 } = counted.result();
    if (seen !== bytes) throw new ArchiveError(`${name}: expected ${bytes} bytes, read ${seen}`);
    entries.push({ name, bytes, sha256, ...(rows === undefined ? {} : { rows }) });
  }

  const addBuffer = (name: string, body: Buffer, rows?: number) => add(name, body.length, Readable.from([body]), rows);

  return {
    add,
    addBuffer,
    addJson: (name: string, value: unknown) => addBuffer(name, Buffer.from(`${JSON.stringify(value, null, 2)}\n`)),
    async finish(summary: Omit<Manifest, 'entries'>): Promise<Manifest> {
      const manifest: Manifest = { ...summary, entries: [...entries] };
      const body = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
      pack.entry({ name: 'manifest.json', size: body.length }, body);
      pack.finalize();
      await done;
      return manifest;
    },
    abort(error: Error) {
      pack.destroy(error);
    },
  };
}

export type ArchiveEntry = { name: string; bytes: number; body: Readable };

/**
 * Reads the archive at `path`, handing each entry but the header and the manifest to `onEntry`
 * (which must consume its body) and checking each against the manifest at the end: a missing,
 * extra, cut or altered entry is an `ArchiveError`, as are a foreign or newer format.
 */
export async function readArchive(
  path: string,
  {
    onHeader,
    onEntry,
  }: {
    onHeader?: (header: ArchiveHeader) => Promise<void> | void;
    onEntry?: (entry: ArchiveEntry) => Promise<void>;
  },
): Promise<{ header: ArchiveHeader; manifest: Manifest }> {
  const extract = tar.extract();
  const seen = new Map<string, { bytes: number; sha256: string }>();
  let header: ArchiveHeader | undefined;
  let manifest: Manifest | undefined;

  const reading = (async () => {
    for await (const entry of extract) {
      const name = entry.header.name;
      const counted = hashing();
      const body = entry.pipe(counted.stream);
      if (name === 'header.json' || name === 'manifest.json') {
        const pieces: Buffer[] = [];
        for await (const piece of body) pieces.push(piece as Buffer);
        const value = parseJson(Buffer.concat(pieces), name);
        if (name === 'header.json') {
          header = checkHeader(value);
          await onHeader?.(header);
        } else manifest = value as Manifest;
        seen.set(name, counted.result());
        continue;
      }
      if (!header) throw new ArchiveError('This is not a Stageline backup: it does not start with header.json.');
      const ended = new Promise<void>((resolve, reject) => {
        body.once('end', resolve);
        body.once('error', reject);
      });
      if (onEntry) await onEntry({ name, bytes: entry.header.size ?? 0, body });
      else body.resume();
      await ended;
      seen.set(name, counted.result());
    }
  })();

  try {
    await Promise.all([pipeline(createReadStream(path), createGunzip(), extract), reading]);
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') throw new ArchiveError(`There is no file at ${path}.`);
    if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR' || /unexpected end|truncated/i.test(String(error)))
      throw new ArchiveError('The archive is cut short or damaged: it cannot be read to its end.');
    throw error;
  }
  if (!header) throw new ArchiveError('This is not a Stageline backup: it has no header.json.');
  if (!manifest) throw new ArchiveError('The archive is cut short: it has no manifest.json at its end.');
  for (const expected of manifest.entries) {
    const got = seen.get(expected.name);
    if (!got) throw new ArchiveError(`The archive lacks ${expected.name}, which its manifest lists.`);
    if (got.bytes !== expected.bytes || got.sha256 !== expected.sha256)
      throw new ArchiveError(`${expected.name} does not match its checksum: the archive was altered or damaged.`);
  }
  const listed = new Set(manifest.entries.map((entry) => entry.name));
  for (const name of seen.keys())
    if (name !== 'manifest.json' && !listed.has(name))
      throw new ArchiveError(`The archive holds ${name}, which its manifest does not list.`);
  return { header, manifest };
}

function parseJson(body: Buffer, name: string): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new ArchiveError(`${name} is not valid JSON: the archive is damaged.`);
  }
}

function checkHeader(value: unknown): ArchiveHeader {
  const header = value as Partial<ArchiveHeader> | null;
  if (!header || header.format !== ArchiveFormat)
    throw new ArchiveError('This is not a Stageline backup (its header names another format).');
  if (typeof header.version !== 'number' || header.version > ArchiveVersion)
    throw new ArchiveError(
      `This backup was written in a newer archive format (${header.version}); this version reads format ${ArchiveVersion}. Upgrade Stageline first.`,
    );
  return header as ArchiveHeader;
}
