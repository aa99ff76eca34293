import { afterEach, describe, expect, it } from 'vitest';
import { setUploadLimit, takeUploadPlace } from './upload-limit';

afterEach(() => setUploadLimit(null));

describe('upload places (MAX_UPLOADS_IN_FLIGHT)', () => {
  it('sends at most the server’s number at once; the next starts when one ends, in order', async () => {
    setUploadLimit(null, 2);
    const started: number[] = [];
    const frees = new Map<number, () => void>();
    const uploads = [1, 2, 3, 4].map(async (n) => {
      const free = await takeUploadPlace();
      started.push(n);
      frees.set(n, free);
    });
    await Promise.resolve();
    expect(started).toEqual([1, 2]);
    frees.get(2)!();
    frees.get(2)!(); // freeing twice frees one place
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual([1, 2, 3]);
    frees.get(1)!();
    await Promise.all(uploads);
    expect(started).toEqual([1, 2, 3, 4]);
    frees.get(3)!();
    frees.get(4)!();
  });
});
