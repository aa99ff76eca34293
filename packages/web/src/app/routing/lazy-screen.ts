import type { ComponentType } from 'react';
import { ClientConstants } from '@stageline/shared';

export class ChunkLoadTimeoutError extends Error {
  constructor() {
    super('A part of the app did not load in time');
    this.name = 'ChunkLoadTimeoutError';
  }
}

/** Rejects when `promise` has not settled within `ms` (docs/rules.md §Limits: 120 s for a script chunk). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadTimeoutError()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * A React Router `lazy` loader for a component its chunk exports (layouts are named exports). A
 * chunk that fails or takes longer than 120 s throws, and the route error screen offers a reload.
 */
export function lazyComponent(load: () => Promise<ComponentType>) {
  return async () => ({ Component: await withTimeout(load(), ClientConstants.chunkLoadTimeoutMs) });
}

/** A React Router `lazy` loader for a screen module's default export (see `lazyComponent`). */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>) {
  return lazyComponent(async () => (await load()).default);
}
