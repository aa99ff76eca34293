import { loadOnce } from '../../../shared/lib/load-once';
import type * as Schemas from '../schemas';

export type TAuthSchemas = typeof Schemas;

/**
 * The auth feature's schemas (`../schemas`: zod and the shared package's rules), fetched once, when a
 * call or a form first needs them or when the browser is idle after the first render; a failed fetch
 * may be tried again (docs/decisions.md, entry 118). `authSchemas` is null until they have arrived:
 * a form's synchronous validation runs after `loadAuthSchemas`.
 */
const schemas = loadOnce<TAuthSchemas>(() => import('../schemas'));
export const loadAuthSchemas = schemas.load;
export const authSchemas = schemas.loaded;
