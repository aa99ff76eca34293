import { describe, expect, it } from 'vitest';
import { loginPath, registerPath, sanitizeNext } from './next-path';

describe('sanitizeNext', () => {
  it('keeps relative paths of this site with their query and hash', () => {
    expect(sanitizeNext('/app')).toBe('/app');
    expect(sanitizeNext('/app/projects/5?tab=units#top')).toBe('/app/projects/5?tab=units#top');
    expect(sanitizeNext('/i/abc123')).toBe('/i/abc123');
  });

  it.each([
    null,
    undefined,
    '',
    'app',
    'https://evil.example/app',
    '//evil.example/app',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
  ])('refuses %j', (raw) => {
    expect(sanitizeNext(raw)).toBeNull();
  });

  it('keeps percent-encoded characters, which stay within this site', () => {
    expect(sanitizeNext('/app/%2F%2Fevil')).toBe('/app/%2F%2Fevil');
  });

  it('refuses auth screens that would loop or sign out', () => {
    expect(sanitizeNext('/login')).toBeNull();
    expect(sanitizeNext('/login/?next=/app')).toBeNull();
    expect(sanitizeNext('/logout')).toBeNull();
    expect(sanitizeNext('/register')).toBeNull();
    expect(sanitizeNext('/reset_pass')).toBeNull();
    expect(sanitizeNext('/oauth')).toBeNull();
    expect(sanitizeNext('/oauth/github?code=x')).toBeNull();
  });

  it('normalises dot segments before deciding', () => {
    expect(sanitizeNext('/app/../logout')).toBeNull();
    expect(sanitizeNext('/app/./profile')).toBe('/app/profile');
  });
});

describe('loginPath', () => {
  it('adds an encoded next only when it is safe', () => {
    expect(loginPath('/app/projects/5?tab=units')).toBe('/login?next=%2Fapp%2Fprojects%2F5%3Ftab%3Dunits');
    expect(loginPath('//evil.example')).toBe('/login');
    expect(loginPath('/logout')).toBe('/login');
    expect(loginPath()).toBe('/login');
  });
});

describe('registerPath', () => {
  it('keeps an invite as next, and nothing that leaves the site', () => {
    expect(registerPath('/i/tok-42')).toBe('/register?next=%2Fi%2Ftok-42');
    expect(registerPath('//evil.example/i/x')).toBe('/register');
    expect(registerPath(null)).toBe('/register');
  });
});
