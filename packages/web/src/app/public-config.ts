/**
 * The schema `boot` checks `/api/config/` with, loaded after the first render so that zod is not
 * part of the first load (docs/decisions.md, entry 118).
 */
export { ZPublicConfig } from '@stageline/shared';
