import type * as Schemas from '../schemas';

export type TAuthSchemas = typeof Schemas;

let loaded: TAuthSchemas | null = null;
let loading: Promise<TAuthSchemas> | null = null;

/**
 * The auth feature's schemas (`../schemas`: zod and the shared package's rules), fetched once, when a
 * call or a form first needs them or when the browser is idle after the first render; a failed fetch
 * may be tried again (docs/decisions.md, entry 118).
 */
export function loadAuthSchemas(): Promise<TAuthSchemas> {
  loading ??= import('../schemas').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The schemas if they have arrived: a form's synchronous validation runs after `loadAuthSchemas`. */
export function authSchemas(): TAuthSchemas | null {
  return loaded;
}
