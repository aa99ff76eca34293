import type { Sharp, SharpOptions } from 'sharp';

/**
 * The limits of decoding images (docs/files.md, "Images"): thumbnails and avatars alike. A small
 * file can declare a huge image (a 10,000 × 10,000 PNG of one colour is a few hundred KB, and an
 * interlaced one must be decoded whole: 400 MB), so its size is read from the header first and
 * refused past `maxPixels`, and this process decodes at most `decodesAtOnce` images at a time.
 */
export const ImageLimits = {
  /** 25 MP: a 6000 × 4000 photo; decoded, up to 100 MB. */
  maxPixels: 25_000_000,
  /** Bytes of a file read to find its dimensions (a JPEG's size follows its EXIF, at most 64 KB a segment). */
  headBytes: 256 * 1024,
  /** Images decoded at once in one process, beside sign-in's password hashing on libuv's threads. */
  decodesAtOnce: 2,
} as const;

/** First come, first served places for work that must not all run at once. */
export class WorkSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** Runs `work` once a place is free, and frees it after. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.size) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

const decodes = new WorkSlots(ImageLimits.decodesAtOnce);

/** sharp, loaded on first use (the heaviest module of the server) with its operation cache off. */
async function loadSharp() {
  const { default: sharp } = await import('sharp');
  // libvips keeps recent operations (up to 50 MB) for reuse; images here are decoded once.
  sharp.cache(false);
  return sharp;
}

/**
 * The pixels an image's header declares (width × height of its first frame, the one decoded),
 * without decoding it; null when the header cannot be read.
 */
export async function declaredPixels(head: Buffer): Promise<number | null> {
  const sharp = await loadSharp();
  try {
    const { width, height } = await sharp(head).metadata();
    return width && height ? width * height : null;
  } catch {
    return null;
  }
}

/**
 * Runs a sharp pipeline on an image already checked with `declaredPixels`, in one of the process's
 * few decoding places, with the pixel cap again as libvips' own guard.
 */
export async function decodeImage<T>(
  input: Buffer | undefined,
  work: (image: Sharp) => Promise<T>,
  options: SharpOptions = {},
): Promise<T> {
  const sharp = await loadSharp();
  return decodes.run(() =>
    work(sharp(input, { limitInputPixels: ImageLimits.maxPixels, failOn: 'error', ...options })),
  );
}
