/** Who the provider says signed in: the same shape for every provider. */
export type OAuthProfile = {
  /** The provider's stable id of the account (`sub`, or GitHub's numeric id). */
  subject: string;
  email: string | null;
  /** True only when the provider vouches for the address. */
  emailVerified: boolean;
  /** A handle to derive a username from (preferred_username, login, nickname). */
  username: string | null;
  firstName: string;
  lastName: string;
};

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The profile of OpenID Connect claims (ID token merged with userinfo). `email_verified` may come
 * as a string from some providers; anything but true or "true" is unverified.
 */
export function oidcProfile(claims: Record<string, unknown>): OAuthProfile {
  const subject = text(claims.sub);
  if (!subject) throw new Error('The provider answered no subject');
  const name = text(claims.name).split(/\s+/).filter(Boolean);
  return {
    subject,
    email: text(claims.email) || null,
    emailVerified: claims.email_verified === true || claims.email_verified === 'true',
    username: text(claims.preferred_username) || text(claims.nickname) || null,
    firstName: text(claims.given_name) || (name[0] ?? ''),
    lastName: text(claims.family_name) || name.slice(1).join(' '),
  };
}
