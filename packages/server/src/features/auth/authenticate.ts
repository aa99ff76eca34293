import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db';
import { AppError } from '../../http/errors';
import type { TApiTokenScope } from '@stageline/shared';
import { countHit, rateLimited } from '../../http/rate-limit';
import { findApiToken, isApiToken, prepareApiTokenLookup, type ApiTokenLookup } from './api-tokens';
import type { SessionCache } from './session-cache';
import { isSessionLiveCached, prepareSessionLookup, type SessionLookup } from './sessions';
import { verifyToken, type TokenKeys } from './tokens';

/**
 * The signed-in caller: who, through which session (the access token's `sid`), and until when the
 * token is valid (epoch ms; long-lived responses such as the event stream end there). A script with
 * a personal API token has no session (`sessionId` 0) and the token's scope.
 */
export type AuthUser = {
  id: number;
  sessionId: number;
  tokenExpiresAt: number;
  via: 'session' | 'api_token';
  scope: TApiTokenScope;
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate`; null on routes that do not require it. */
    user: AuthUser | null;
  }
  interface FastifyInstance {
    /**
     * Hook of every signed-in route (onRequest): 401 `not_authenticated` or `token_not_valid`; 403
     * for a read-only API token on anything but a read.
     */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** The same for what only a signed-in person may do (tokens, password, e-mail, 2FA, sessions). */
    authenticateSession: (request: FastifyRequest) => Promise<void>;
    /** The caller of a request that may be signed in: `readCaller`. */
    readCaller: (request: FastifyRequest) => Promise<AuthUser | undefined>;
    /**
     * Whether a session is still live, through this instance's session cache (a revoke reaches it by
     * NOTIFY; docs/security.md): what a long-lived response re-checks (the event stream's heartbeat).
     */
    isSessionLive: (ids: { userId: number; sessionId: number }) => Promise<boolean>;
  }
}

/** What reading a caller needs: the keys, this instance's session cache and the prepared lookups. */
type Authenticator = {
  db: Db;
  keys: TokenKeys;
  verifyAccess: (token: string) => AccessCaller | null;
  sessionCache: SessionCache;
  sessionLookup: SessionLookup;
  apiTokenLookup: ApiTokenLookup;
};

type AccessCaller = NonNullable<ReturnType<typeof verifyToken<'access'>>>;

/**
 * `verifyToken(…, 'access')` that remembers the tokens it has verified, by their text: a client sends
 * the same access token with every request for its 15 minutes, and its signature and claims do not
 * change, so only its expiry is checked again (docs/decisions.md, decision 119). The oldest of `max`
 * remembered tokens is forgotten first; whether the session is still live is asked every time.
 */
export function rememberingVerifier(keys: TokenKeys, max = 10_000): (token: string) => AccessCaller | null {
  const verified = new Map<string, AccessCaller>();
  return (token) => {
    const known = verified.get(token);
    if (known) {
      if (known.exp > Math.floor(Date.now() / 1000)) return known;
      verified.delete(token);
      return null;
    }
    const claims = verifyToken(keys, token, 'access');
    if (claims) {
      const oldest = verified.keys().next();
      if (verified.size >= max && !oldest.done) verified.delete(oldest.value);
      verified.set(token, claims);
    }
    return claims;
  };
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
async function readCaller(request: FastifyRequest, auth: Authenticator): Promise<AuthUser | undefined> {
  const token = bearerToken(request);
  if (token === undefined) return undefined;
  if (isApiToken(token)) return readApiTokenCaller(request, auth, token);
  const claims = token ? auth.verifyAccess(token) : null;
  const live =
    claims &&
    (await isSessionLiveCached(
      { sessionCache: auth.sessionCache, lookup: auth.sessionLookup },
      { userId: claims.userId, sessionId: claims.sid },
    ));
  if (!claims || !live) throw new AppError('token_not_valid');
  return {
    id: claims.userId,
    sessionId: claims.sid,
    tokenExpiresAt: claims.exp * 1000,
    via: 'session',
    scope: 'write',
  };
}

/** Failed API-token attempts per address (docs/security.md): past it, 429 instead of 401. */
const apiTokenFailures = { max: 30, windowSeconds: 60 };

async function readApiTokenCaller(request: FastifyRequest, auth: Authenticator, token: string): Promise<AuthUser> {
  const found = await findApiToken({ db: auth.db, lookup: auth.apiTokenLookup }, auth.keys, token);
  if (!found) {
    const failures = await countHit(auth.db, `api-token-fail:${request.ip}`, apiTokenFailures);
    if (failures.hits > apiTokenFailures.max) throw rateLimited(failures.retryAfter);
    throw new AppError(
      'not_authenticated',
      'This API token is not valid: it was revoked, has expired or never existed.',
    );
  }
  return {
    id: found.userId,
    sessionId: 0,
    tokenExpiresAt: found.expiresAt?.getTime() ?? Number.MAX_SAFE_INTEGER,
    via: 'api_token',
    scope: found.scope,
  };
}

const reads = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Decorates `request.user`, `app.authenticate`, `app.authenticateSession` and `app.readCaller` for
 * every feature. `sessionCache` is this app instance's (docs/security.md, "Tokens").
 */
export const authenticatePlugin = fp<{ db: Db; keys: TokenKeys; sessionCache: SessionCache }>(
  async (app: FastifyInstance, { db, keys, sessionCache }) => {
    const auth: Authenticator = {
      db,
      keys,
      verifyAccess: rememberingVerifier(keys),
      sessionCache,
      sessionLookup: prepareSessionLookup(db),
      apiTokenLookup: prepareApiTokenLookup(db),
    };
    app.decorateRequest('user', null);
    app.decorate('readCaller', (request: FastifyRequest) => readCaller(request, auth));
    app.decorate('isSessionLive', (ids: { userId: number; sessionId: number }) =>
      isSessionLiveCached({ sessionCache: auth.sessionCache, lookup: auth.sessionLookup }, ids),
    );
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const caller = await readCaller(request, auth);
      if (!caller) throw new AppError('not_authenticated');
      if (caller.scope === 'read' && !reads.has(request.method)) {
        throw new AppError('permission_denied', 'This API token can only read.');
      }
      request.user = caller;
    });
    app.decorate('authenticateSession', async (request: FastifyRequest) => {
      await app.authenticate(request);
      if (request.user?.via !== 'session') {
        throw new AppError('permission_denied', 'API tokens cannot do this: sign in to the app.');
      }
    });
  },
);

/** The caller of a route guarded by `app.authenticate`. */
export function callerOf(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('not_authenticated');
  return request.user;
}
