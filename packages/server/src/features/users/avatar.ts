import { eq, sql } from 'drizzle-orm';
import { schema, type Db } from '../../db';
import { AppError } from '../../http/errors';
import { decodeImage, declaredPixels, detectContentType, ImageLimits } from '../attachments';

/** Side of the square every avatar is re-encoded to. */
export const avatarSize = 256;

/** The image type by its first bytes, whatever the file name or declared type says. */
export function sniffImageType(data: Buffer): 'png' | 'jpeg' | 'webp' | undefined {
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png';
  }
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  return undefined;
}

/**
 * Bytes that are no image at all (a text file named `.png`) are told so; an image of another type
 * (GIF, SVG…) or a broken one is asked for in a kind we take (decision 193).
 */
const notAnImage = () => new AppError('bad_request', 'This file is not an image. Upload a PNG, JPEG or WebP image.');
const unusableImage = () => new AppError('bad_request', 'Upload a PNG, JPEG or WebP image.');

async function refusal(data: Buffer): Promise<AppError> {
  return (await detectContentType(data.subarray(0, 4100))).startsWith('image/') ? unusableImage() : notAnImage();
}

/**
 * Re-encodes an upload to a 256×256 WebP: only PNG, JPEG and WebP by content, its size read from the
 * header and refused past `ImageLimits.maxPixels` before anything is decoded (a small file can
 * declare a huge image), then decoded in one of the process's few decoding places (docs/files.md,
 * "Images"); the original bytes (and any metadata) are never stored.
 */
export async function encodeAvatar(data: Buffer): Promise<Buffer> {
  if (!sniffImageType(data)) throw await refusal(data);
  const pixels = await declaredPixels(data);
  if (pixels === null) throw unusableImage();
  if (pixels > ImageLimits.maxPixels) {
    throw new AppError('bad_request', 'This image is too large: at most {{megapixels}} megapixels.', {
      megapixels: ImageLimits.maxPixels / 1_000_000,
    });
  }
  try {
    return await decodeImage(data, (image) =>
      image.rotate().resize(avatarSize, avatarSize, { fit: 'cover' }).webp({ quality: 82 }).toBuffer(),
    );
  } catch {
    throw unusableImage();
  }
}

/** Stores a user's new avatar and bumps its version; answers the version. */
export async function saveAvatar(db: Db, { userId, image }: { userId: number; image: Buffer }): Promise<number> {
  return db.transaction(async (tx) => {
    await tx
      .insert(schema.avatars)
      .values({ userId, contentType: 'image/webp', image })
      .onConflictDoUpdate({
        target: schema.avatars.userId,
        set: { contentType: 'image/webp', image, createdAt: new Date() },
      });
    const [row] = await tx
      .update(schema.users)
      .set({ avatarVersion: sql`coalesce(${schema.users.avatarVersion}, 0) + 1`, updatedAt: new Date() })
      .where(eq(schema.users.id, userId))
      .returning({ version: schema.users.avatarVersion });
    return row!.version!;
  });
}

export async function clearAvatar(db: Db, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(schema.avatars).where(eq(schema.avatars.userId, userId));
    await tx
      .update(schema.users)
      .set({ avatarVersion: null, updatedAt: new Date() })
      .where(eq(schema.users.id, userId));
  });
}

/** The avatar image of a user and its version, or undefined when they have none. */
export async function loadAvatar(db: Db, userId: number) {
  const [row] = await db
    .select({
      image: schema.avatars.image,
      contentType: schema.avatars.contentType,
      version: schema.users.avatarVersion,
    })
    .from(schema.avatars)
    .innerJoin(schema.users, eq(schema.users.id, schema.avatars.userId))
    .where(eq(schema.avatars.userId, userId));
  return row;
}
