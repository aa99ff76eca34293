import { and, eq, isNotNull, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { schema, type Db } from '../../db';
import { publish } from '../events';
import { decodeImage, declaredPixels, ImageLimits } from './images';
import type { FileStorage } from './storage';

const { attachments } = schema;

/** An image waiting for its thumbnail: its row's `thumbnail_queued_at` when it was queued. */
export type QueuedThumbnail = { id: number; queuedAt: Date };

/**
 * Thumbnails made after the upload's answer (docs/files.md, "Images"; docs/decisions.md, entry 143):
 * one at a time per process, in arrival order. The work is recorded in the database
 * (`thumbnail_queued_at`), so a restart takes up what was left waiting.
 */
export type ThumbnailQueue = {
  add(item: QueuedThumbnail): void;
  /** Takes up the images queued before this process started (by one that stopped); answers how many. */
  resume(): Promise<number>;
  /** Resolves when nothing is waiting or being made, a `resume` under way included (tests). */
  idle(): Promise<void>;
  /** Takes no more and waits for the one being made. */
  stop(): Promise<void>;
};

/** Thumbnails made at once by one process: the rest wait, holding only their ids. */
const thumbnailsAtOnce = 1;

export function createThumbnailQueue({
  db,
  storage,
  log,
}: {
  db: Db;
  storage: FileStorage;
  log: FastifyBaseLogger;
}): ThumbnailQueue {
  const startedAt = new Date();
  const waiting: QueuedThumbnail[] = [];
  let running = 0;
  let stopped = false;
  let idleWaiters: (() => void)[] = [];
  let resuming: Promise<unknown> = Promise.resolve();

  const settle = () => {
    if (running > 0 || (waiting.length > 0 && !stopped)) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  };

  const pump = () => {
    while (!stopped && running < thumbnailsAtOnce && waiting.length > 0) {
      const item = waiting.shift()!;
      running += 1;
      void makeThumbnail(db, storage, item)
        .catch((error: unknown) => log.error({ err: error, attachmentId: item.id }, 'thumbnail failed'))
        .finally(() => {
          running -= 1;
          pump();
          settle();
        });
    }
    settle();
  };

  return {
    add(item) {
      if (stopped) return;
      waiting.push(item);
      pump();
    },
    resume() {
      const run = (async () => {
        const rows = await db
          .select({ id: attachments.id, queuedAt: attachments.thumbnailQueuedAt })
          .from(attachments)
          .where(and(isNotNull(attachments.thumbnailQueuedAt), lt(attachments.thumbnailQueuedAt, startedAt)))
          .orderBy(attachments.thumbnailQueuedAt);
        for (const row of rows) this.add({ id: row.id, queuedAt: row.queuedAt! });
        return rows.length;
      })();
      resuming = run.catch(() => undefined);
      return run;
    },
    async idle() {
      await resuming;
      return new Promise((resolve) => {
        idleWaiters.push(resolve);
        settle();
      });
    },
    async stop() {
      stopped = true;
      await this.idle();
    },
  };
}

/**
 * Makes one thumbnail: claims the row (moving its `thumbnail_queued_at`, so of two processes taking
 * it up only one makes it), reads the image's size from its first bytes, and decodes it only under
 * `ImageLimits.maxPixels`. An image too large or unreadable gets none. Either way the row leaves the
 * queue and the workspace hears of it.
 */
async function makeThumbnail(db: Db, storage: FileStorage, { id, queuedAt }: QueuedThumbnail): Promise<void> {
  const claimedAt = new Date();
  const [row] = await db
    .update(attachments)
    .set({ thumbnailQueuedAt: claimedAt })
    .where(and(eq(attachments.id, id), eq(attachments.thumbnailQueuedAt, queuedAt)))
    .returning({ key: attachments.storageKey, size: attachments.size, workspaceId: attachments.workspaceId });
  if (!row) return;
  const thumbnail = await thumbnailOf(storage, row.key, row.size);
  const [done] = await db
    .update(attachments)
    .set({ thumbnail, thumbnailQueuedAt: null })
    .where(and(eq(attachments.id, id), eq(attachments.thumbnailQueuedAt, claimedAt)))
    .returning({ id: attachments.id });
  if (done && row.workspaceId !== null) {
    await publish(db, { workspace: row.workspaceId }, { type: 'files', data: { id, action: 'updated' } });
  }
}

/** A WebP of at most 320 px of a stored image, or null when it is too large or sharp cannot read it. */
async function thumbnailOf(storage: FileStorage, key: string, size: number): Promise<Buffer | null> {
  if (size === 0) return null;
  const head = await readAll(await storage.get(key, { start: 0, end: Math.min(size, ImageLimits.headBytes) - 1 }));
  const pixels = await declaredPixels(head);
  if (pixels === null || pixels > ImageLimits.maxPixels) return null;
  try {
    const bytes = size <= head.length ? head : await readAll(await storage.get(key));
    return await decodeImage(bytes, (image) =>
      image.rotate().resize(320, 320, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 75 }).toBuffer(),
    );
  } catch {
    return null;
  }
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece);
  return Buffer.concat(pieces);
}
