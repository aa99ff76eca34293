import { z } from 'zod';

/**
 * Personal API tokens (profile → API tokens): a script signs in as its owner with
 * `Authorization: Bearer stl_…`. The secret is shown once, at creation; the server keeps a hash.
 */

export const ApiTokenScopes = ['read', 'write'] as const;
export const ZApiTokenScope = z.enum(ApiTokenScopes);
export type TApiTokenScope = z.infer<typeof ZApiTokenScope>;

/** Every token secret starts with this, so scanners and people can tell it apart from a JWT. */
export const ApiTokenPrefix = 'stl_';

/** POST users/me/tokens/. `expires_at`: an ISO date-time in the future; omitted, it never expires. */
export const ZApiTokenCreate = z.object({
  name: z.string().trim().min(1).max(100),
  scope: ZApiTokenScope,
  expires_at: z.iso
    .datetime({ offset: true })
    .refine((value) => Date.parse(value) > Date.now(), 'The expiry date must be in the future.')
    .nullable()
    .optional(),
});
export type TApiTokenCreate = z.infer<typeof ZApiTokenCreate>;

/** A token as listed: never its secret. */
export const ZApiToken = z.object({
  id: z.number().int(),
  name: z.string(),
  scope: ZApiTokenScope,
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
});
export type TApiToken = z.infer<typeof ZApiToken>;

/** The answer of POST users/me/tokens/: the token with its secret, shown this once. */
export const ZApiTokenCreated = ZApiToken.extend({
  token: z.string().describe('The secret (`stl_…`): shown once, store it now.'),
});
export type TApiTokenCreated = z.infer<typeof ZApiTokenCreated>;
