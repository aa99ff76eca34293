import type { OAuthProfile } from './profile';

/** GitHub is plain OAuth 2: no discovery, no ID token; the profile comes from its REST API. */
export const githubMetadata = {
  issuer: 'https://github.com',
  authorization_endpoint: 'https://github.com/login/oauth/authorize',
  token_endpoint: 'https://github.com/login/oauth/access_token',
} as const;

export const githubApi = 'https://api.github.com';
export const githubScope = 'read:user user:email';

type GithubUser = { id?: unknown; login?: unknown; name?: unknown; email?: unknown };
type GithubEmail = { email?: unknown; primary?: unknown; verified?: unknown };

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The profile of GET /user and GET /user/emails. Only the primary address counts, and only when
 * GitHub says it is verified; the public `email` of /user is never trusted as verified.
 */
export function githubProfile(user: GithubUser, emails: GithubEmail[] | null): OAuthProfile {
  if ((typeof user.id !== 'number' && typeof user.id !== 'string') || String(user.id) === '') {
    throw new Error('GitHub answered a user without an id');
  }
  const primary = emails?.find((entry) => entry.primary === true && typeof entry.email === 'string');
  const email = primary ? text(primary.email) : text(user.email);
  const [firstName = '', ...rest] = text(user.name).split(/\s+/).filter(Boolean);
  return {
    subject: String(user.id),
    email: email || null,
    emailVerified: Boolean(primary && primary.verified === true),
    username: text(user.login) || null,
    firstName,
    lastName: rest.join(' '),
  };
}

/** Reads the GitHub user and their e-mails with an access token (scope `read:user user:email`). */
export async function fetchGithubProfile(
  accessToken: string,
  fetcher: typeof fetch = fetch,
  apiBase: string = githubApi,
): Promise<OAuthProfile> {
  const get = async (path: string) => {
    const response = await fetcher(`${apiBase}${path}`, {
      headers: {
        Accept: 'application/vnd.github+json',
        Authorization: `Bearer ${accessToken}`,
        'User-Agent': 'Stageline',
        'X-GitHub-Api-Version': '2022-11-28',
      },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`GitHub ${path} answered ${response.status}`);
    const body: unknown = await response.json();
    return body;
  };
  const [user, emails] = await Promise.all([get('/user'), get('/user/emails').catch(() => null)]);
  return githubProfile(user as GithubUser, Array.isArray(emails) ? (emails as GithubEmail[]) : null);
}
