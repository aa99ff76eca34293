import type { FastifyReply, FastifyRequest } from 'fastify';
import { signJwt, verifyJwt, type TokenKeys } from '../auth';

/**
 * The secrets of one sign-in in flight, kept by the browser that started it: a signed, short-lived
 * JWT in an HttpOnly SameSite=Lax cookie. The `state` sent to the provider is only a random value
 * compared with the one in here; the PKCE verifier and nonce never travel in a URL. Because the
 * cookie binds the flow to this browser, a code obtained by someone else cannot sign it in.
 */
export type FlowClaims = {
  provider: string;
  state: string;
  verifier: string;
  nonce?: string;
  redirectUri: string;
  /** Where the web app goes after signing in. */
  next?: string;
  /** Set when a signed-in user links an account instead of signing in. */
  linkUserId?: number;
};

export const flowCookieName = 'stageline_oauth';
export const flowCookiePath = '/api/oauth/';
/** Long enough to sign in at the provider (maybe with its own 2FA), short enough to be useless later. */
export const flowMinutes = 10;

const audience = 'stageline:oauth-flow';

export function signFlow(keys: TokenKeys, claims: FlowClaims): string {
  return signJwt(keys.jwt, { ...claims, typ: 'oauth_flow' }, { seconds: flowMinutes * 60, audience });
}

/** The claims of a valid, unexpired flow token, or null. */
export function verifyFlow(keys: TokenKeys, token: string): FlowClaims | null {
  const p = verifyJwt(keys.jwt, token, { audience });
  if (!p) return null;
  const strings = ['provider', 'state', 'verifier', 'redirectUri'] as const;
  if (p.typ !== 'oauth_flow' || strings.some((key) => typeof p[key] !== 'string')) return null;
  if (p.nonce !== undefined && typeof p.nonce !== 'string') return null;
  if (p.next !== undefined && typeof p.next !== 'string') return null;
  if (p.linkUserId !== undefined && !Number.isSafeInteger(p.linkUserId)) return null;
  const { provider, state, verifier, nonce, redirectUri, next, linkUserId } = p as unknown as FlowClaims;
  return { provider, state, verifier, nonce, redirectUri, next, linkUserId };
}

function cookie(value: string, maxAge: number, secure: boolean): string {
  const parts = [
    `${flowCookieName}=${value}`,
    `Path=${flowCookiePath}`,
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

export function setFlowCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.header('set-cookie', cookie(token, flowMinutes * 60, secure));
}

/** Every flow cookie is single use: the callback clears it whatever the outcome. */
export function clearFlowCookie(reply: FastifyReply, secure: boolean): void {
  reply.header('set-cookie', cookie('', 0, secure));
}

export function readFlowCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === flowCookieName) return value.join('=') || undefined;
  }
  return undefined;
}
