import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientConstants } from '@stageline/shared';
import { ChunkLoadTimeoutError, lazyScreen, withTimeout } from './lazy-screen';

/** Settles `promise` into a plain record so fake-timer tests can look at it without awaiting. */
function track<T>(promise: Promise<T>) {
  const state: { status: 'pending' | 'resolved' | 'rejected'; value?: T; error?: unknown } = { status: 'pending' };
  promise.then(
    (value) => Object.assign(state, { status: 'resolved', value }),
    (error: unknown) => Object.assign(state, { status: 'rejected', error }),
  );
  return state;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('withTimeout', () => {
  it('waits 120 s for a chunk', () => {
    expect(ClientConstants.chunkLoadTimeoutMs).toBe(120_000);
  });

  it('rejects with ChunkLoadTimeoutError once the time is up', async () => {
    const state = track(withTimeout(new Promise<never>(() => undefined), ClientConstants.chunkLoadTimeoutMs));
    await vi.advanceTimersByTimeAsync(ClientConstants.chunkLoadTimeoutMs - 1);
    expect(state.status).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(state.status).toBe('rejected');
    expect(state.error).toBeInstanceOf(ChunkLoadTimeoutError);
  });

  it('resolves when the import wins, and the timer never fires afterwards', async () => {
    const load = new Promise<string>((resolve) => setTimeout(() => resolve('chunk'), 5_000));
    const state = track(withTimeout(load, ClientConstants.chunkLoadTimeoutMs));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(state).toEqual({ status: 'resolved', value: 'chunk' });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(ClientConstants.chunkLoadTimeoutMs);
    expect(state.status).toBe('resolved');
  });

  it('passes on a failed import as an Error', async () => {
    const failing = withTimeout(Promise.reject(new TypeError('Failed to fetch dynamically imported module')), 1_000);
    await expect(failing).rejects.toThrow(TypeError);
    // A non-Error reason (some bundlers reject with a string) is wrapped in an Error.
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
    await expect(withTimeout(Promise.reject('text'), 1_000)).rejects.toThrow('text');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('lazyScreen', () => {
  it("maps the module's default export to { Component }", async () => {
    const Screen = () => null;
    const loader = lazyScreen(() => Promise.resolve({ default: Screen }));
    await expect(loader()).resolves.toEqual({ Component: Screen });
  });

  it('rejects a chunk that takes longer than 120 s', async () => {
    const state = track(lazyScreen(() => new Promise<never>(() => undefined))());
    await vi.advanceTimersByTimeAsync(ClientConstants.chunkLoadTimeoutMs);
    expect(state.error).toBeInstanceOf(ChunkLoadTimeoutError);
  });
});
