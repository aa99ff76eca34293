import { describe, expect, test } from 'vitest';
import { fetchGithubProfile, githubProfile } from './github';
import { oidcProfile } from './profile';
import { baseUsername } from './username';

describe('githubProfile', () => {
  test('trusts only the verified primary e-mail', () => {
    const user = { id: 42, login: 'octocat', name: 'Mona Lisa Octocat', email: 'public@example.com' };
    expect(
      githubProfile(user, [
        { email: 'old@example.com', primary: false, verified: true },
        { email: 'mona@example.com', primary: true, verified: true },
      ]),
    ).toEqual({
      subject: '42',
      email: 'mona@example.com',
      emailVerified: true,
      username: 'octocat',
      firstName: 'Mona',
      lastName: 'Lisa Octocat',
    });
    expect(githubProfile(user, [{ email: 'mona@example.com', primary: true, verified: false }])).toMatchObject({
      email: 'mona@example.com',
      emailVerified: false,
    });
    // Without access to /user/emails the public address is kept, unverified.
    expect(githubProfile(user, null)).toMatchObject({ email: 'public@example.com', emailVerified: false });
    expect(() => githubProfile({ login: 'x' }, null)).toThrow();
  });

  test('reads /user and /user/emails with the token', async () => {
    const seen: string[] = [];
    const fetcher = (async (url: string, init: RequestInit) => {
      seen.push(`${url} ${(init.headers as Record<string, string>).Authorization}`);
      const body = url.endsWith('/user')
        ? { id: 7, login: 'dev', name: null }
        : [{ email: 'dev@example.com', primary: true, verified: true }];
      return new Response(JSON.stringify(body), { status: 200 });
    }) as unknown as typeof fetch;
    await expect(fetchGithubProfile('tok', fetcher, 'https://api.test')).resolves.toMatchObject({
      subject: '7',
      email: 'dev@example.com',
      emailVerified: true,
    });
    expect(seen.sort()).toEqual(['https://api.test/user Bearer tok', 'https://api.test/user/emails Bearer tok']);
  });
});

test('oidcProfile accepts email_verified as a boolean or "true" only', () => {
  expect(oidcProfile({ sub: 's', email: 'a@b.c', email_verified: 'true', name: 'Ada King Lovelace' })).toEqual({
    subject: 's',
    email: 'a@b.c',
    emailVerified: true,
    username: null,
    firstName: 'Ada',
    lastName: 'King Lovelace',
  });
  expect(oidcProfile({ sub: 's', email: 'a@b.c', email_verified: 'yes' }).emailVerified).toBe(false);
  expect(() => oidcProfile({ email: 'a@b.c' })).toThrow();
});

test.each([
  [{ username: 'octo cat!', email: null }, 'octo_cat'],
  [{ username: null, email: 'jane.doe+x@example.com' }, 'jane.doe_x'],
  [{ username: 'Юлия', email: null }, 'Юлия'],
  [{ username: '..', email: 'a@b.c' }, 'user'],
  [{ username: 'al', email: null }, 'al_'],
])('baseUsername(%o) is %s', (profile, expected) => {
  expect(baseUsername(profile)).toBe(expected);
});
