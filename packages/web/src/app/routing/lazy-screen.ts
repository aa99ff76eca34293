import type { ComponentType } from 'react';
import type { LoaderFunctionArgs, Params } from 'react-router';
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

/**
 * A screen module: its component, and optionally `prefetch`, which starts the screen's first reads
 * from the URL alone (never waits for them, never throws).
 */
export type TScreenModule = {
  default: ComponentType;
  prefetch?: (route: { params: Params; url: URL }) => void;
};

/**
 * A React Router `lazy` loader for a screen module's default export (see `lazyComponent`). A module's
 * `prefetch` becomes the route's loader, which React Router runs once the chunk is in and before the
 * first render: the screen's reads leave then, not after the shell and the screen have rendered
 * (docs/decisions.md, decision 122). The loader answers at once; the screen reads its queries as usual.
 */
export function lazyScreen(load: () => Promise<TScreenModule>) {
  return async () => {
    const module = await withTimeout(load(), ClientConstants.chunkLoadTimeoutMs);
    const { prefetch } = module;
    if (!prefetch) return { Component: module.default };
    return {
      Component: module.default,
      loader: ({ params, request }: LoaderFunctionArgs) => {
        prefetch({ params, url: new URL(request.url) });
        return null;
      },
    };
  };
}
