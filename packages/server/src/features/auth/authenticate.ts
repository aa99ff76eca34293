import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db';
import { AppError } from '../../http/errors';
import { isSessionLive } from './sessions';
import { verifyToken, type TokenKeys } from './tokens';

/**
 * The signed-in caller: who, through which session (the access token's `sid`), and until when the
 * token is valid (epoch ms; long-lived responses such as the event stream end there).
 */
export type AuthUser = { id: number; sessionId: number; tokenExpiresAt: number };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate`; null on routes that do not require it. */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /** Hook of every signed-in route (onRequest): 401 `not_authenticated` or `token_not_valid`. */
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
}

/** The bearer token of a request, or undefined when it carries none. */
function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : '';
}

/**
 * Reads the caller from `Authorization: Bearer <access>`: undefined without the header, else the user
 * or a 401 `token_not_valid` for an expired, forged or revoked-session token.
 */
export async function readCaller(request: FastifyRequest, db: Db, keys: TokenKeys): Promise<AuthUser | undefined> {
  const token = bearerToken(request);
  if (token === undefined) return undefined;
  const claims = token ? await verifyToken(keys, token, 'access') : null;
  if (!claims || !(await isSessionLive(db, { userId: claims.userId, sessionId: claims.sid }))) {
    throw new AppError('token_not_valid');
  }
  return { id: claims.userId, sessionId: claims.sid, tokenExpiresAt: (claims.exp ?? 0) * 1000 };
}

/** Decorates `request.user` and `app.authenticate` for every feature. */
export const authenticatePlugin = fp<{ db: Db; keys: TokenKeys }>(async (app: FastifyInstance, { db, keys }) => {
  app.decorateRequest('user', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const caller = await readCaller(request, db, keys);
    if (!caller) throw new AppError('not_authenticated');
    request.user = caller;
  });
});

/** The caller of a route guarded by `app.authenticate`. */
export function callerOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('not_authenticated');
  return request.user;
}
