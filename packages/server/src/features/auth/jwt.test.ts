import { jwtVerify, SignJWT } from 'jose';
import { Limits } from '@stageline/shared';
import { describe, expect, test, vi } from 'vitest';
import { rememberingVerifier } from './authenticate';
import { signJwt, verifyJwt } from './jwt';
import { createKeys, signAccess, signRefresh, verifyToken } from './tokens';

const keys = createKeys('a test secret that is long enough for HS256');
const other = createKeys('another secret');
const now = () => Math.floor(Date.now() / 1000);
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('HS256 with node:crypto', () => {
  test('tokens signed by jose (as before) verify, and ours verify with jose', async () => {
    const old = await new SignJWT({ typ: 'access', sub: '7', sid: 3 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(now() + 300)
      .sign(keys.jwt);
    expect(verifyToken(keys, old, 'access')).toMatchObject({ userId: 7, sid: 3, typ: 'access' });

    const ours = signAccess(keys, 7, 3);
    const { payload, protectedHeader } = await jwtVerify(ours, keys.jwt, { algorithms: ['HS256'] });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ typ: 'access', sub: '7', sid: 3 });
    expect(payload.exp! - payload.iat!).toBe(300);
  });

  test('another key, a changed payload, another alg, no exp or an expired one are refused', async () => {
    const token = signJwt(keys.jwt, { typ: 'access', sub: '1', sid: 1 }, { seconds: 60 });
    expect(verifyJwt(keys.jwt, token)).not.toBeNull();
    expect(verifyJwt(other.jwt, token)).toBeNull();
    const [header, , signature] = token.split('.');
    expect(
      verifyJwt(keys.jwt, `${header}.${part({ typ: 'access', sub: '2', sid: 1, exp: now() + 60 })}.${signature}`),
    ).toBeNull();
    expect(verifyJwt(keys.jwt, `${part({ alg: 'none' })}.${part({ sub: '1', exp: now() + 60 })}.`)).toBeNull();
    expect(verifyJwt(keys.jwt, `${token}x`)).toBeNull();
    expect(verifyJwt(keys.jwt, 'not.a.token')).toBeNull();

    const hs512 = await new SignJWT({ sub: '1' })
      .setProtectedHeader({ alg: 'HS512' })
      .setExpirationTime('1m')
      .sign(keys.jwt);
    expect(verifyJwt(keys.jwt, hs512)).toBeNull();
    const withoutExp = await new SignJWT({ sub: '1' }).setProtectedHeader({ alg: 'HS256' }).sign(keys.jwt);
    expect(verifyJwt(keys.jwt, withoutExp)).toBeNull();
    const expired = await new SignJWT({ sub: '1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(now() - 1)
      .sign(keys.jwt);
    expect(verifyJwt(keys.jwt, expired)).toBeNull();
    const notYet = await new SignJWT({ sub: '1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setNotBefore(now() + 60)
      .setExpirationTime('2m')
      .sign(keys.jwt);
    expect(verifyJwt(keys.jwt, notYet)).toBeNull();
  });

  test('the audience must match when one is asked for; typ is checked by verifyToken', () => {
    const flow = signJwt(keys.jwt, { typ: 'oauth_flow' }, { seconds: 60, audience: 'stageline:oauth-flow' });
    expect(verifyJwt(keys.jwt, flow, { audience: 'stageline:oauth-flow' })).not.toBeNull();
    expect(verifyJwt(keys.jwt, flow, { audience: 'elsewhere' })).toBeNull();
    const refresh = signJwt(keys.jwt, { typ: 'refresh', sub: '1', sid: 1, jti: 'x' }, { seconds: 60 });
    expect(verifyToken(keys, refresh, 'access')).toBeNull();
    expect(verifyToken(keys, refresh, 'refresh')).toMatchObject({ userId: 1, jti: 'x' });
  });
});

describe('the verifier that remembers access tokens (decision 119)', () => {
  test('a remembered token stops verifying when it expires; forged and other kinds never verify', () => {
    vi.useFakeTimers({ now: new Date('2026-11-24T12:00:00Z') });
    try {
      const verify = rememberingVerifier(keys);
      const token = signAccess(keys, 7, 3);
      expect(verify(token)).toMatchObject({ userId: 7, sid: 3 });
      expect(verify(token)).toMatchObject({ userId: 7, sid: 3 });
      const [header, body] = token.split('.');
      expect(verify(`${header}.${body}.${'A'.repeat(43)}`)).toBeNull();
      expect(verify(signAccess(other, 7, 3))).toBeNull();
      expect(verify(signRefresh(keys, 7, 3, 'jti'))).toBeNull();
      vi.setSystemTime(Date.now() + Limits.accessTokenMinutes * 60_000);
      expect(verify(token)).toBeNull();
      expect(verify(token)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  test('past its size it forgets the oldest token and still verifies it anew', () => {
    const verify = rememberingVerifier(keys, 2);
    const tokens = [1, 2, 3].map((user) => signAccess(keys, user, user));
    expect(tokens.map((token) => verify(token)?.userId)).toEqual([1, 2, 3]);
    expect(verify(tokens[0]!)?.userId).toBe(1);
  });
});
